/* report/report.c — rtp_report_html (report.h): the checks, the model, then
 * the sections in the order a reviewer reads them: the verdicts, the
 * platform, the CPUs, the margins, the proof, what emit writes, the
 * schedule, the rehearsal, and how to read the page. */
#include "report/report_internal.h"

#include <string.h>

rtp_report_opts rtp_report_opts_default(void)
{
    rtp_report_opts o;
    memset(&o, 0, sizeof o);
    o.priority = RTP_PRIO_OPA;
    o.capacity = (rtp_ratio){1, 1};
    o.deploy = rtp_deploy_opts_default();
    o.limits = rtp_limits_default();
    return o;
}

rtp_status rtp_report_html(const rtp_plan *plan, const rtp_rehearse_report *rehearsal,
                           const rtp_probe_report *probe, const rtp_report_opts *opts,
                           rtp_text *out, rtp_diag *diag)
{
    rtp_status st = rtp_deploy_opts_check(&opts->deploy, diag);
    if (st == RTP_OK && rehearsal)
        st = rtp_report_check_rehearsal(plan, rehearsal, opts, diag);
    if (st == RTP_OK && probe)
        st = rtp_report_check_probe(plan, probe, diag);
    if (st != RTP_OK)
        return st;
    rpt r;
    memset(&r, 0, sizeof r);
    r.out = out;
    r.plan = plan;
    r.rehearsal = rehearsal;
    r.probe = probe;
    r.opts = opts;
    st = rpt_model_build(&r, diag);
    if (st == RTP_OK)
        st = rpt_gantt_build(&r, diag);
    if (st == RTP_OK) {
        h_page_begin(&r, opts->title ? opts->title : "plan");
        rpt_section_summary(&r);
        rpt_section_platform(&r);
        rpt_section_cpus(&r);
        rpt_section_resources(&r);
        rpt_section_margins(&r);
        rpt_section_proof(&r);
        rpt_section_emit(&r);
        rpt_section_schedule(&r);
        if (rehearsal)
            rpt_section_rehearsal(&r);
        rpt_section_reading(&r);
        h_page_end(&r);
        st = rtp_text_status(out);
        if (st != RTP_OK)
            rtp_oom(diag);
    }
    rpt_model_free(&r);
    return st;
}
