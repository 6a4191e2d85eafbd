/*
 * clvf: a whole chain of clvf operations as one filter, so that a chain preset is one word on a
 * command line (-vf clvf=web-720p) and frames stay on the device between the operations. The
 * chain is a chain preset's name (presets/chains.preset) or the filters as -vf writes them
 * (clvf='denoise_clvf=preset=light,scale_clvf=w=1280:h=-2'), planned by the clvf library
 * (clvf_chain_*: the same options and meanings as the separate filters). Thin glue: formats,
 * frames in and out, timestamps across a temporal denoise's delay.
 */
#include "libavutil/opt.h"
#include "libavutil/pixdesc.h"
#include "clvf_ffmpeg.h"
#include "clvf_filter.h"
#include "formats.h"
#include "video.h"

typedef struct CLVFChainContext {
    const AVClass *class;
    char *chain_text;
    char *device_spec;
    int profile;

    enum AVPixelFormat out_of[8]; /* the output format for each of ff_clvf_formats_all (NONE: refused) */
    clvf_device *device;
    clvf_chain *chain; /* made at the first frame, from its colour tags */
    clvf_stream out;   /* what the chain outputs */
    int hw;
    enum AVPixelFormat in_sw;
    CLVFQueue queue;
} CLVFChainContext;

static av_cold int clvf_chain_init(AVFilterContext *ctx)
{
    CLVFChainContext *s = ctx->priv;

    ff_clvf_route_log(ctx);
    if (!s->chain_text || !*s->chain_text) {
        av_log(ctx, AV_LOG_ERROR, "option 'chain' is empty: give a chain preset (%s) or clvf filters as -vf "
               "writes them\n", clvf_preset_names("chains"));
        return AVERROR(EINVAL);
    }
    return 0;
}

/* The formats the chain takes, and what each becomes (planned at a few common sizes: a size that
 * the chain refuses is reported once the real one is known). */
static int clvf_chain_query_formats(AVFilterContext *ctx)
{
    static const int sizes[][2] = { { 1920, 1080 }, { 1280, 720 }, { 720, 576 }, { 64, 64 } };
    CLVFChainContext *s = ctx->priv;
    enum AVPixelFormat in[8], outs[8];
    int n_in = 0, n_out = 0, same = 1, seen;
    clvf_status st = CLVF_OK;
    ff_clvf_route_log(ctx);

    for (int i = 0; ff_clvf_formats_all[i] != AV_PIX_FMT_NONE; i++) {
        clvf_stream want = { CLVF_API_VERSION, 0, 0, ff_clvf_format(ff_clvf_formats_all[i]) }, got;
        s->out_of[i] = AV_PIX_FMT_NONE;
        for (int k = 0; k < FF_ARRAY_ELEMS(sizes) && s->out_of[i] == AV_PIX_FMT_NONE; k++) {
            want.width = sizes[k][0], want.height = sizes[k][1];
            if ((st = clvf_chain_plan(s->chain_text, &want, &got)) == CLVF_OK)
                s->out_of[i] = ff_clvf_av_format(got.format);
        }
        if (s->out_of[i] == AV_PIX_FMT_NONE)
            continue;
        in[n_in++] = ff_clvf_formats_all[i];
        same &= s->out_of[i] == ff_clvf_formats_all[i];
        seen = 0;
        for (int k = 0; k < n_out; k++)
            seen |= outs[k] == s->out_of[i];
        if (!seen)
            outs[n_out++] = s->out_of[i];
    }
    if (!n_in)
        return ff_clvf_error(ctx, st, "chain");
    in[n_in++] = AV_PIX_FMT_OPENCL; /* OpenCL frames of the same formats (checked at configuration) */
    in[n_in] = AV_PIX_FMT_NONE;
    if (same)
        return ff_clvf_query_formats(ctx, in, AV_PIX_FMT_NONE);
    /* One output format for every input (the chain converts to it), else the graph's choice is
     * checked against the chain's once the input is known. */
    return ff_clvf_query_formats(ctx, in, n_out == 1 ? outs[0] : AV_PIX_FMT_NONE);
}

static void release_state(CLVFChainContext *s)
{
    ff_clvf_queue_free(&s->queue);
    s->queue.op = NULL;
    clvf_chain_release(s->chain);
    s->chain = NULL;
    clvf_device_release(s->device);
    s->device = NULL;
}

static av_cold void clvf_chain_uninit(AVFilterContext *ctx)
{
    CLVFChainContext *s = ctx->priv;
    ff_clvf_route_log(ctx);
    release_state(s);
    ff_clvf_route_log(NULL);
}

static int clvf_chain_config_output(AVFilterLink *outlink)
{
    AVFilterContext *ctx = outlink->src;
    AVFilterLink *inlink = ctx->inputs[0];
    CLVFChainContext *s = ctx->priv;
    clvf_stream in;
    clvf_status st;
    enum AVPixelFormat out_sw, taken[FF_ARRAY_ELEMS(s->out_of) + 1];
    int err, n_taken = 0;
    ff_clvf_route_log(ctx);

    release_state(s);
    for (int i = 0; ff_clvf_formats_all[i] != AV_PIX_FMT_NONE; i++)
        if (s->out_of[i] != AV_PIX_FMT_NONE)
            taken[n_taken++] = ff_clvf_formats_all[i];
    taken[n_taken] = AV_PIX_FMT_NONE;
    if ((err = ff_clvf_input_format(ctx, inlink, taken, &s->hw, &s->in_sw)) < 0)
        return err;
    if ((err = ff_clvf_check_output_kind(ctx, s->hw, outlink)) < 0)
        return err;
    in = ff_clvf_stream(inlink, s->in_sw, NULL);
    if ((st = clvf_chain_plan(s->chain_text, &in, &s->out)) != CLVF_OK)
        return ff_clvf_error(ctx, st, "chain");
    out_sw = ff_clvf_av_format(s->out.format);
    if (!s->hw && outlink->format != out_sw) {
        av_log(ctx, AV_LOG_ERROR, "the chain makes %s frames of %s, but the graph asks for %s; end the chain "
               "with a format= conversion\n", av_get_pix_fmt_name(out_sw), av_get_pix_fmt_name(s->in_sw),
               av_get_pix_fmt_name(outlink->format));
        return AVERROR(EINVAL);
    }
    outlink->w = s->out.width;
    outlink->h = s->out.height;
    outlink->sample_aspect_ratio = s->out.sar_num > 0 ? (AVRational){ s->out.sar_num, s->out.sar_den }
                                                      : inlink->sample_aspect_ratio;
    if ((err = ff_clvf_open_device(ctx, inlink, s->device_spec, s->profile, &s->device)) < 0)
        return err;
    if (s->hw && (err = ff_clvf_output_frames(ctx, inlink, outlink, out_sw, s->device)) < 0)
        return err;
    av_log(ctx, AV_LOG_VERBOSE, "%dx%d %s -> %dx%d %s through \"%s\"\n", inlink->w, inlink->h,
           av_get_pix_fmt_name(s->in_sw), outlink->w, outlink->h, av_get_pix_fmt_name(out_sw), s->chain_text);
    return 0;
}

/* The queue calls the chain through void pointers: these give it the real types. */
static clvf_status chain_submit(void *op, const clvf_frame *src, const clvf_frame *dst, int *got)
{
    return clvf_chain_submit(op, src, dst, got);
}

static clvf_status chain_complete(void *op)
{
    return clvf_chain_complete(op);
}

/* The chain is made at the first frame, planned for the stream's tags as that frame carries them. */
static int clvf_chain_prepare(AVFilterContext *ctx, const AVFrame *in)
{
    CLVFChainContext *s = ctx->priv;
    AVFilterLink *inlink = ctx->inputs[0];
    clvf_stream stream;
    clvf_status st;
    int err;

    if ((err = ff_clvf_check_frame(ctx, inlink, in, s->hw)) < 0 || s->chain)
        return err;
    stream = ff_clvf_stream(inlink, s->in_sw, in);
    if ((st = clvf_chain_create(s->device, s->chain_text, &stream, ff_clvf_storage(s->hw), ff_clvf_storage(s->hw),
                                &s->chain)) != CLVF_OK)
        return ff_clvf_error(ctx, st, "chain");
    clvf_chain_output(s->chain, &s->out);
    s->queue.op = s->chain;
    s->queue.submit = chain_submit;
    s->queue.complete = chain_complete;
    ff_clvf_queue_frames(&s->queue, s->hw, s->device);
    s->queue.in_format = ff_clvf_format(s->in_sw);
    s->queue.out_format = s->out.format;
    s->queue.tags = s->out;
    return 0;
}

static int clvf_chain_activate(AVFilterContext *ctx)
{
    CLVFChainContext *s = ctx->priv;
    return ff_clvf_activate(ctx, &s->queue, clvf_chain_prepare);
}

#define OFFSET(x) offsetof(CLVFChainContext, x)
#define FLAGS (AV_OPT_FLAG_FILTERING_PARAM | AV_OPT_FLAG_VIDEO_PARAM)
static const AVOption clvf_chain_options[] = {
    { "chain", "a chain preset (web-720p, web-1080p, archive-denoise, denoise-web-720p, "
      "uhd-bt2020-to-1080p-bt709, sd-to-hd-1080p; see presets/chains.preset), or clvf filters as -vf writes "
      "them, quoted", OFFSET(chain_text), AV_OPT_TYPE_STRING, { .str = NULL }, 0, 0, FLAGS },
    CLVF_DEVICE_OPTION(OFFSET(device_spec), FLAGS),
    CLVF_PROFILE_OPTION(OFFSET(profile), FLAGS),
    CLVF_ASYNC_DEPTH_OPTION(OFFSET(queue.depth), FLAGS),
    { NULL }
};

AVFILTER_DEFINE_CLASS(clvf_chain);

CLVF_VIDEO_PADS(clvf_chain, NULL, clvf_chain_config_output);

const AVFilter ff_vf_clvf = {
    .name           = "clvf",
    .description    = NULL_IF_CONFIG_SMALL("A chain of clvf OpenCL operations (a chain preset) as one filter."),
    .priv_size      = sizeof(CLVFChainContext),
    .priv_class     = &clvf_chain_class,
    .init           = clvf_chain_init,
    .uninit         = clvf_chain_uninit,
    .activate       = clvf_chain_activate,
    FILTER_INPUTS(clvf_chain_inputs),
    FILTER_OUTPUTS(clvf_chain_outputs),
    FILTER_QUERY_FUNC(clvf_chain_query_formats),
    .flags          = CLVF_FLAG_HWDEVICE,
    .flags_internal = FF_FILTER_FLAG_HWFRAME_AWARE,
};
