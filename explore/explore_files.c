/* explore/explore_files.c — the output folder of a sweep: file paths, whole
 * writes, durable appends and the manifest (see explore_internal.h). */
#include "explore/explore_internal.h"
#include "models/fileio.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

void explore_make_paths(const char *dir, explore_paths *p)
{
    snprintf(p->dir, sizeof p->dir, "%s", dir);
    snprintf(p->manifest, sizeof p->manifest, "%s/manifest.txt", dir);
    snprintf(p->sweep, sizeof p->sweep, "%s/sweep.json", dir);
    snprintf(p->results, sizeof p->results, "%s/results.csv", dir);
    snprintf(p->timing, sizeof p->timing, "%s/timing.csv", dir);
    snprintf(p->jsonl, sizeof p->jsonl, "%s/sets.jsonl", dir);
    snprintf(p->weighted, sizeof p->weighted, "%s/weighted.csv", dir);
    snprintf(p->svg, sizeof p->svg, "%s/acceptance.svg", dir);
    snprintf(p->partial, sizeof p->partial, "%s/partial.txt", dir);
}

rtp_status explore_io_error(rtp_diag *diag, const char *path, const char *what)
{
    /* an output that cannot be written is exit 3, as for every command
     * (models/fileio.c, docs/spec.md "Exit status"); it was exit 2 until
     * 2026-12-07 (review rev11c) */
    return rtp_diag_set(diag, RTP_EINTERNAL, "", "%s: cannot %s: %s", path, what, strerror(errno));
}

rtp_status explore_write_text(const char *path, const char *text, size_t len, rtp_diag *diag)
{
    return rtp_write_file(path, text, len, 0644, diag);
}

rtp_status explore_append_text(const char *path, const char *text, size_t len, rtp_diag *diag)
{
    int fd = open(path, O_WRONLY | O_APPEND | O_CREAT, 0644);
    if (fd < 0)
        return explore_io_error(diag, path, "append to");
    size_t done = 0;
    while (done < len) {
        ssize_t n = write(fd, text + done, len - done);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            close(fd);
            return explore_io_error(diag, path, "append to");
        }
        done += (size_t)n;
    }
    int ok = fsync(fd) == 0 || errno == EINVAL;
    ok = close(fd) == 0 && ok;
    return ok ? RTP_OK : explore_io_error(diag, path, "append to");
}

rtp_status explore_read_named(const char *path, char **text, size_t *len, rtp_diag *diag)
{
    rtp_status st = rtp_read_file(path, text, len, diag);
    if (st != RTP_OK && diag) {
        char reason[sizeof diag->message];
        snprintf(reason, sizeof reason, "%s", diag->message);
        rtp_diag_set(diag, st, "", "%s: %s", path, reason);
    }
    return st;
}

rtp_status explore_make_dir(const explore_paths *p, rtp_diag *diag)
{
    /* Every file the folder may get is a regular file or new before
     * anything is written (models/fileio.h rtp_output_check): the journal
     * is appended to, so a FIFO there would block and a device take the
     * rows. */
    const char *const files[] = {p->manifest, p->sweep, p->results, p->timing,
                                 p->jsonl,    p->weighted, p->svg,  p->partial};
    const char *dir = p->dir;
    rtp_status st = rtp_output_check(dir, 1, diag);
    for (size_t i = 0; st == RTP_OK && i < sizeof files / sizeof files[0]; i++)
        st = rtp_output_check(files[i], 0, diag);
    if (st != RTP_OK)
        return st;
    if (mkdir(dir, 0755) != 0 && errno != EEXIST)
        return explore_io_error(diag, dir, "create the folder");
    struct stat sb;
    if (stat(dir, &sb) != 0 || !S_ISDIR(sb.st_mode))
        return rtp_diag_set(diag, RTP_EINPUT, "", "%s: not a folder", dir);
    return RTP_OK;
}

rtp_status explore_write_manifest(const char *path, const rtp_sweep *sw, int k, int n,
                                  rtp_ns set_time_limit_ns, rtp_diag *diag)
{
    char text[320];
    int len = snprintf(text, sizeof text,
                       "rtpack-explore-manifest 1\ngenerator_version %d\nsweep_hash %016llx\n"
                       "shard %d/%d\npoints %zu\n",
                       RTP_GEN_VERSION, (unsigned long long)sw->hash, k, n, sw->n_points);
    if (set_time_limit_ns > 0) /* absent: none (the manifests written before it) */
        len += snprintf(text + len, sizeof text - (size_t)len, "set_time_limit_ns %lld\n",
                        (long long)set_time_limit_ns);
    return explore_write_text(path, text, (size_t)len, diag);
}

rtp_status explore_read_manifest(const char *path, explore_manifest *m, rtp_diag *diag)
{
    char *text = NULL;
    size_t len;
    rtp_status st = explore_read_named(path, &text, &len, diag);
    if (st != RTP_OK)
        return st;
    int fields = sscanf(text, "rtpack-explore-manifest 1\ngenerator_version %d\nsweep_hash %llx\n"
                              "shard %d/%d\n", &m->version, &m->hash, &m->k, &m->n);
    long long limit = 0;
    const char *at = strstr(text, "\nset_time_limit_ns ");
    int bad_limit = at && (sscanf(at, "\nset_time_limit_ns %lld", &limit) != 1 || limit < 0);
    m->set_time_limit_ns = (rtp_ns)limit;
    free(text);
    if (fields != 4 || m->k < 1 || m->k > m->n || bad_limit)
        return rtp_diag_set(diag, RTP_EINPUT, "", "%s: not an rtpack explore manifest", path);
    return RTP_OK;
}

rtp_status explore_check_manifest(const explore_manifest *m, const rtp_sweep *sw,
                                  const char *path, rtp_diag *diag)
{
    if (m->version != RTP_GEN_VERSION)
        return rtp_diag_set(diag, RTP_EINPUT, "",
                            "%s: made with generator version %d, this rtpack has version %d",
                            path, m->version, RTP_GEN_VERSION);
    if (m->hash != sw->hash)
        return rtp_diag_set(diag, RTP_EINPUT, "",
                            "%s: made from a different sweep (hash %016llx, expected %016llx)",
                            path, m->hash, (unsigned long long)sw->hash);
    return RTP_OK;
}
