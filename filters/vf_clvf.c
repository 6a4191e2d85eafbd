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
    /* Properties of the frames sent and not yet out (a temporal denoise holds some back). */
    AVFrame **pending;
    int nb_pending, pending_size;
    int eof;
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
    while (s->nb_pending)
        av_frame_free(&s->pending[--s->nb_pending]);
    s->eof = 0;
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
    av_freep(&s->pending);
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

/* One step of the chain: sends `in` (NULL: the end) and outputs a frame when one is ready, with
 * the properties of the oldest frame sent. *got tells which. */
static int step(AVFilterContext *ctx, AVFrame *in, int *got)
{
    CLVFChainContext *s = ctx->priv;
    AVFilterLink *outlink = ctx->outputs[0];
    AVFrame *out = NULL, *props;
    clvf_frame src, dst;
    clvf_status st;
    int err;

    *got = 0;
    if (in) {
        if (s->nb_pending == s->pending_size) {
            AVFrame **grown = av_realloc_array(s->pending, s->pending_size + 4, sizeof(*grown));
            if (!grown)
                return AVERROR(ENOMEM);
            s->pending = grown;
            s->pending_size += 4;
        }
        if (!(props = av_frame_alloc()) || (err = av_frame_copy_props(props, in)) < 0) {
            av_frame_free(&props);
            return AVERROR(ENOMEM);
        }
        s->pending[s->nb_pending++] = props;
    }
    if (!s->nb_pending)
        return 0;
    if ((err = ff_clvf_output_frame(outlink, s->hw, s->pending[0], &out)) < 0)
        goto done;
    if (in)
        ff_clvf_describe_frame(in, s->hw, ff_clvf_format(s->in_sw), &src);
    ff_clvf_describe_frame(out, s->hw, s->out.format, &dst);
    if ((st = clvf_chain_process(s->chain, in ? &src : NULL, &dst, got)) != CLVF_OK) {
        err = ff_clvf_error(ctx, st, "chain");
        goto done;
    }
    if (!*got)
        goto done;
    av_frame_free(&s->pending[0]);
    memmove(s->pending, s->pending + 1, --s->nb_pending * sizeof(*s->pending));
    ff_clvf_tag_frame(out, &s->out);
    err = ff_filter_frame(outlink, out);
    out = NULL;
done:
    av_frame_free(&out);
    return err;
}

static int send_frame(AVFilterContext *ctx, AVFrame *in)
{
    CLVFChainContext *s = ctx->priv;
    AVFilterLink *inlink = ctx->inputs[0];
    clvf_status st;
    int err, got;

    if ((err = ff_clvf_check_frame(ctx, inlink, in, s->hw)) < 0)
        goto done;
    if (!s->chain) { /* planned for the stream's tags as the first frame carries them */
        clvf_stream stream = ff_clvf_stream(inlink, s->in_sw, in);
        if ((st = clvf_chain_create(s->device, s->chain_text, &stream, ff_clvf_storage(s->hw),
                                    ff_clvf_storage(s->hw), &s->chain)) != CLVF_OK) {
            err = ff_clvf_error(ctx, st, "chain");
            goto done;
        }
        clvf_chain_output(s->chain, &s->out);
    }
    err = step(ctx, in, &got);
done:
    av_frame_free(&in);
    return err;
}

static int clvf_chain_activate(AVFilterContext *ctx)
{
    AVFilterLink *inlink = ctx->inputs[0], *outlink = ctx->outputs[0];
    CLVFChainContext *s = ctx->priv;
    AVFrame *in = NULL;
    int64_t pts;
    int ret, status, got;
    ff_clvf_route_log(ctx);

    FF_FILTER_FORWARD_STATUS_BACK(outlink, inlink);
    if ((ret = ff_inlink_consume_frame(inlink, &in)) < 0)
        return ret;
    if (ret > 0) {
        if ((ret = send_frame(ctx, in)) < 0)
            return ret;
        ff_filter_set_ready(ctx, 100);
        return 0;
    }
    if (ff_inlink_acknowledge_status(inlink, &status, &pts)) {
        if (status == AVERROR_EOF && s->chain && !s->eof) {
            s->eof = 1;
            do {
                if ((ret = step(ctx, NULL, &got)) < 0)
                    return ret;
            } while (got);
        }
        ff_outlink_set_status(outlink, status, pts);
        return 0;
    }
    FF_FILTER_FORWARD_WANTED(outlink, inlink);
    return FFERROR_NOT_READY;
}

#define OFFSET(x) offsetof(CLVFChainContext, x)
#define FLAGS (AV_OPT_FLAG_FILTERING_PARAM | AV_OPT_FLAG_VIDEO_PARAM)
static const AVOption clvf_chain_options[] = {
    { "chain", "a chain preset (web-720p, web-1080p, archive-denoise, denoise-web-720p, "
      "uhd-bt2020-to-1080p-bt709, sd-to-hd-1080p; see presets/chains.preset), or clvf filters as -vf writes "
      "them, quoted", OFFSET(chain_text), AV_OPT_TYPE_STRING, { .str = NULL }, 0, 0, FLAGS },
    CLVF_DEVICE_OPTION(OFFSET(device_spec), FLAGS),
    CLVF_PROFILE_OPTION(OFFSET(profile), FLAGS),
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
