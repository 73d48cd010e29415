/* deploy/state.c — see state.h. */
#include "deploy/state.h"
#include "models/grow.h"
#include "models/taskset.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

void rtp_deploy_state_free(rtp_deploy_state *state)
{
    if (!state)
        return;
    for (size_t i = 0; i < state->n_tasks; i++) {
        free(state->tasks[i].log);
        free(state->tasks[i].name);
    }
    free(state->tasks);
    free(state->script);
    free(state->root);
    free(state->logdir);
    memset(state, 0, sizeof *state);
}

/* The first space-separated word of *rest, NUL-terminated in place; *rest
 * moves past it. */
static char *pop(char **rest)
{
    char *word = *rest, *space = strchr(word, ' ');
    if (space) {
        *space = '\0';
        *rest = space + 1;
    } else {
        *rest = word + strlen(word);
    }
    return word;
}

static rtp_status set_string(char **slot, const char *value)
{
    free(*slot);
    *slot = strdup(value);
    return *slot ? RTP_OK : RTP_ENOMEM;
}

static rtp_status add_task(rtp_deploy_state *s, char *rest)
{
    if (RTP_GROW(s->tasks, s->cap_tasks, s->n_tasks + 1) != 0)
        return RTP_ENOMEM;
    rtp_deploy_task_record *t = &s->tasks[s->n_tasks];
    memset(t, 0, sizeof *t);
    t->pid = strtol(pop(&rest), NULL, 10);
    const char *start = pop(&rest);
    t->start_time = strcmp(start, "-") == 0 ? -1 : strtoll(start, NULL, 10);
    t->bin = (size_t)strtoul(pop(&rest), NULL, 10);
    const char *base = pop(&rest);
    size_t size = strlen(s->logdir ? s->logdir : "") + strlen(base) + 6;
    if (!(t->log = malloc(size)) || set_string(&t->name, rest) != RTP_OK) {
        free(t->log);
        return RTP_ENOMEM;
    }
    snprintf(t->log, size, "%s/%s.log", s->logdir ? s->logdir : "", base);
    s->n_tasks++;
    return RTP_OK;
}

/* One record line (NUL-terminated, no newline). */
static rtp_status read_record(rtp_deploy_state *s, char *line)
{
    char *rest = line;
    const char *kind = pop(&rest);
    if (strcmp(kind, "script") == 0)
        return set_string(&s->script, rest);
    if (strcmp(kind, "root") == 0)
        return set_string(&s->root, rest);
    if (strcmp(kind, "logdir") == 0)
        return set_string(&s->logdir, rest);
    if (strcmp(kind, "starter") == 0)
        s->starter = strtol(rest, NULL, 10);
    else if (strcmp(kind, "started") == 0)
        s->started = 1;
    else if (strcmp(kind, "planned") == 0)
        s->n_planned++;
    else if (strcmp(kind, "task") == 0)
        return add_task(s, rest);
    return RTP_OK;
}

rtp_status rtp_deploy_state_read(const char *state_dir, const char *name,
                                 rtp_deploy_state *out, rtp_diag *diag)
{
    memset(out, 0, sizeof *out);
    size_t size = strlen(state_dir) + strlen(name) + 8;
    char *path = malloc(size);
    if (!path)
        return rtp_diag_set(diag, RTP_ENOMEM, "", "out of memory");
    snprintf(path, size, "%s/%s/state", state_dir, name);
    char *text = NULL;
    size_t len = 0;
    rtp_status st = rtp_read_file(path, &text, &len, diag);
    if (st == RTP_OK && strncmp(text, "version 1\n", 10) != 0)
        st = rtp_diag_set(diag, RTP_EINPUT, "", "%s is not a version-1 rtpack state file", path);
    char *save = NULL;
    for (char *line = st == RTP_OK ? strtok_r(text, "\n", &save) : NULL; line && st == RTP_OK;
         line = strtok_r(NULL, "\n", &save))
        if (read_record(out, line) != RTP_OK)
            st = rtp_diag_set(diag, RTP_ENOMEM, "", "out of memory");
    if (st == RTP_OK && !out->script)
        st = set_string(&out->script, "") == RTP_OK
                 ? RTP_OK
                 : rtp_diag_set(diag, RTP_ENOMEM, "", "out of memory");
    free(text);
    free(path);
    if (st != RTP_OK)
        rtp_deploy_state_free(out);
    return st;
}

int rtp_deploy_live_script(const char *state_dir, const char *path, char *name,
                           size_t name_size)
{
    struct stat target, recorded;
    if (stat(path, &target) != 0)
        return 0;
    DIR *dir = opendir(state_dir);
    if (!dir)
        return 0;
    int found = 0;
    for (struct dirent *e = readdir(dir); e && !found; e = readdir(dir)) {
        if (e->d_name[0] == '.')
            continue;
        rtp_deploy_state state;
        rtp_diag diag;
        rtp_diag_clear(&diag);
        if (rtp_deploy_state_read(state_dir, e->d_name, &state, &diag) != RTP_OK)
            continue;
        found = state.script[0] && stat(state.script, &recorded) == 0 &&
                recorded.st_dev == target.st_dev && recorded.st_ino == target.st_ino;
        if (found)
            snprintf(name, name_size, "%s", e->d_name);
        rtp_deploy_state_free(&state);
    }
    closedir(dir);
    return found;
}
