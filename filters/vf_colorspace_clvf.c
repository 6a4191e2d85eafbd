/*
 * colorspace_clvf: colour conversion with OpenCL through clvf. Converts between YUV matrices
 * (BT.601, BT.709, BT.2020 NCL, SMPTE 240M), tv/pc ranges, NV12, YUV420P, P010, YUV444P, RGBA
 * and BGRA, dithering when the depth drops. What the input is comes from each frame's
 * properties unless the in_* options say; the output frame carries what it became. Thin glue:
 * the operation lives in the clvf library. Accepts system-memory frames and OpenCL frames and
 * outputs the same kind.
 */
#include "libavutil/hwcontext.h"
#include "libavutil/opt.h"
#include "libavutil/pixdesc.h"
#include "avfilter.h"
#include "clvf_ffmpeg.h"
#include "clvf_filter.h"
#include "formats.h"
#include "video.h"

#define UNSET CLVF_OPT_INPUT

typedef struct ColorspaceCLVFContext {
    const AVClass *class;
    char *preset;
    int out_format; /* enum AVPixelFormat; AV_PIX_FMT_NONE: the input's */
    int matrix, in_matrix, range, in_range, chroma_location, dither;
    char *chroma_filter;
    char *device_spec;
    int profile;

    clvf_colorspace_request request; /* the options */
    clvf_stream planned, out;         /* the input stream planned for, and its output */
    clvf_device *device;
    clvf_colorspace *op;
    clvf_colorspace_params params; /* of op */
    int hw;
    enum AVPixelFormat in_sw;
    CLVFQueue queue;
} ColorspaceCLVFContext;

static av_cold int colorspace_clvf_init(AVFilterContext *ctx)
{
    ColorspaceCLVFContext *s = ctx->priv;
    clvf_colorspace_request *r = &s->request;
    clvf_scale_algorithm filter;
    clvf_status st;
    int err;

    ff_clvf_route_log(ctx);
    if (s->preset && (err = ff_clvf_apply_preset(ctx, "colorspace_clvf", s->preset)) < 0)
        return err;
    if (s->out_format != AV_PIX_FMT_NONE && !ff_clvf_format(s->out_format)) {
        av_log(ctx, AV_LOG_ERROR, "option 'format': %s is not supported; allowed: nv12, yuv420p, p010le, yuv444p, "
               "rgba, bgra\n", av_get_pix_fmt_name(s->out_format));
        return AVERROR(EINVAL);
    }
    clvf_colorspace_request_default(r);
    if (s->chroma_filter) {
        if ((st = clvf_scale_algorithm_from_name(s->chroma_filter, &filter)) != CLVF_OK)
            return ff_clvf_error(ctx, st, "option 'chroma_filter'");
        r->chroma_filter = filter;
    }
    r->format = s->out_format != AV_PIX_FMT_NONE ? ff_clvf_format(s->out_format) : 0;
    r->matrix = s->matrix;
    r->in_matrix = s->in_matrix;
    r->range = s->range;
    r->in_range = s->in_range;
    r->chroma_location = s->chroma_location;
    r->dither = s->dither;
    return 0;
}

static void release_op(ColorspaceCLVFContext *s)
{
    const char *profile = s->op ? clvf_colorspace_profile(s->op) : "";

    ff_clvf_queue_free(&s->queue);
    s->queue.op = NULL;
    if (*profile)
        av_log(s, AV_LOG_INFO, "kernel times (CLVF_PROFILE):\n%s", profile);
    clvf_colorspace_release(s->op);
    s->op = NULL;
}

static av_cold void colorspace_clvf_uninit(AVFilterContext *ctx)
{
    ColorspaceCLVFContext *s = ctx->priv;
    ff_clvf_route_log(ctx);
    release_op(s);
    clvf_device_release(s->device);
    s->device = NULL;
    ff_clvf_route_log(NULL);
}

static int colorspace_clvf_query_formats(AVFilterContext *ctx)
{
    static const enum AVPixelFormat in_formats[] = {
        AV_PIX_FMT_NV12, AV_PIX_FMT_YUV420P, AV_PIX_FMT_P010LE, AV_PIX_FMT_YUV444P, AV_PIX_FMT_RGBA, AV_PIX_FMT_BGRA,
        AV_PIX_FMT_OPENCL, AV_PIX_FMT_NONE
    };
    return ff_clvf_query_formats(ctx, in_formats, ((ColorspaceCLVFContext *)ctx->priv)->out_format);
}

static int plan(AVFilterContext *ctx, clvf_stream input);

static int colorspace_clvf_config_output(AVFilterLink *outlink)
{
    AVFilterContext *ctx = outlink->src;
    AVFilterLink *inlink = ctx->inputs[0];
    ColorspaceCLVFContext *s = ctx->priv;
    enum AVPixelFormat out_sw;
    int err;
    ff_clvf_route_log(ctx);

    release_op(s);
    clvf_device_release(s->device);
    s->device = NULL;
    if ((err = ff_clvf_input_format(ctx, inlink, ff_clvf_formats_all, &s->hw, &s->in_sw)) < 0)
        return err;
    if ((err = ff_clvf_check_output_kind(ctx, s->hw, outlink)) < 0)
        return err;
    out_sw = s->hw ? (s->out_format != AV_PIX_FMT_NONE ? s->out_format : s->in_sw) : outlink->format;
    outlink->w = inlink->w;
    outlink->h = inlink->h;
    outlink->sample_aspect_ratio = inlink->sample_aspect_ratio;
    /* Planned now for untagged frames, so that bad options fail before any frame; again at the
     * first frame, from its tags. */
    if ((err = plan(ctx, ff_clvf_stream(inlink, s->in_sw, NULL))) < 0)
        return err;
    if ((err = ff_clvf_open_device(ctx, inlink, s->device_spec, s->profile, &s->device)) < 0)
        return err;
    if (s->hw && (err = ff_clvf_output_frames(ctx, inlink, outlink, out_sw, s->device)) < 0)
        return err;
    return 0;
}

/* The queue calls operations through void pointers: these give it the real types. One output a
 * frame, none at the end. */
static clvf_status colorspace_submit(void *op, const clvf_frame *src, const clvf_frame *dst, int *got)
{
    *got = src != NULL;
    return src ? clvf_colorspace_submit(op, src, dst) : CLVF_OK;
}

static clvf_status colorspace_complete(void *op)
{
    return clvf_colorspace_complete(op);
}

/* Plans for `input` into s->params and s->out (the library's rules). */
static int plan(AVFilterContext *ctx, clvf_stream input)
{
    ColorspaceCLVFContext *s = ctx->priv;
    clvf_status st = clvf_colorspace_plan(&s->request, &input, &s->params, &s->out);

    if (st != CLVF_OK)
        return ff_clvf_error(ctx, st, NULL);
    s->params.src_storage = s->params.dst_storage = ff_clvf_storage(s->hw);
    s->planned = input;
    return 0;
}

/* (Re)makes the operation when the frame's tags give other params than those it has (first
 * frame, or a stream whose tags change). */
static int plan_for(AVFilterContext *ctx, const AVFrame *in)
{
    ColorspaceCLVFContext *s = ctx->priv;
    clvf_stream input = ff_clvf_stream(ctx->inputs[0], s->in_sw, in);
    clvf_colorspace_params before = s->params;
    const clvf_colorspace_params *p = &s->params;
    clvf_status st;
    int err;

    if (s->op && !memcmp(&input, &s->planned, sizeof(input)))
        return 0;
    if ((err = plan(ctx, input)) < 0)
        return err;
    s->queue.tags = s->out;
    if (s->op && !memcmp(&before, &s->params, sizeof(before)))
        return 0;
    if ((err = ff_clvf_drain(ctx, &s->queue)) < 0)
        return err;
    release_op(s);
    av_log(ctx, AV_LOG_VERBOSE, "%dx%d: matrix %d range %d -> matrix %d range %d, chroma location %d, dither %d\n",
           p->width, p->height, p->src_matrix, p->src_range, p->dst_matrix, p->dst_range, p->chroma_location,
           p->dither);
    if ((st = clvf_colorspace_create(s->device, &s->params, &s->op)) != CLVF_OK)
        return ff_clvf_error(ctx, st, "colorspace_clvf");
    s->queue.op = s->op;
    s->queue.submit = colorspace_submit;
    s->queue.complete = colorspace_complete;
    ff_clvf_queue_frames(&s->queue, s->hw, s->device);
    s->queue.in_format = p->src_format;
    s->queue.out_format = p->dst_format;
    s->queue.tags = s->out;
    return 0;
}

static int colorspace_clvf_prepare(AVFilterContext *ctx, const AVFrame *in)
{
    ColorspaceCLVFContext *s = ctx->priv;
    int err = ff_clvf_check_frame(ctx, ctx->inputs[0], in, s->hw);
    return err < 0 ? err : plan_for(ctx, in);
}

static int colorspace_clvf_activate(AVFilterContext *ctx)
{
    ColorspaceCLVFContext *s = ctx->priv;
    return ff_clvf_activate(ctx, &s->queue, colorspace_clvf_prepare);
}

#define OFFSET(x) offsetof(ColorspaceCLVFContext, x)
#define FLAGS (AV_OPT_FLAG_FILTERING_PARAM | AV_OPT_FLAG_VIDEO_PARAM)
static const AVOption colorspace_clvf_options[] = {
    { "preset", "named option set (see presets/colorspace_clvf.preset), or a preset file path (PATH or "
      "PATH#NAME); options given explicitly override the preset's",
      OFFSET(preset), AV_OPT_TYPE_STRING, { .str = NULL }, 0, 0, FLAGS },
    { "format", "output pixel format: nv12, yuv420p, p010le, yuv444p, rgba, bgra (default: the input's)",
      OFFSET(out_format), AV_OPT_TYPE_PIXEL_FMT, { .i64 = AV_PIX_FMT_NONE }, -1, INT_MAX, FLAGS },
    { "matrix", "output matrix: bt709, bt601 (bt470bg, smpte170m), smpte240m, bt2020nc (default: the input's)",
      OFFSET(matrix), AV_OPT_TYPE_INT, { .i64 = UNSET }, UNSET, CLVF_MATRIX_BT2020_NCL, FLAGS, "matrix" },
    CLVF_MATRIX_CONSTS("matrix"),
    { "in_matrix", "input matrix, as matrix (default: the frame's; untagged: bt709 from 720 lines, else bt601)",
      OFFSET(in_matrix), AV_OPT_TYPE_INT, { .i64 = UNSET }, UNSET, CLVF_MATRIX_BT2020_NCL, FLAGS, "in_matrix" },
    CLVF_MATRIX_CONSTS("in_matrix"),
    { "range", "output range: tv (limited, mpeg) or pc (full, jpeg) (default: the input's; tv from RGB)",
      OFFSET(range), AV_OPT_TYPE_INT, { .i64 = UNSET }, UNSET, CLVF_RANGE_PC, FLAGS, "range" },
    CLVF_RANGE_CONSTS("range"),
    { "in_range", "input range, as range (default: the frame's; untagged: tv)",
      OFFSET(in_range), AV_OPT_TYPE_INT, { .i64 = UNSET }, UNSET, CLVF_RANGE_PC, FLAGS, "in_range" },
    CLVF_RANGE_CONSTS("in_range"),
    { "chroma_location", "4:2:0 chroma siting, input and output: left, center, topleft (default: the frame's; "
      "untagged: left)", OFFSET(chroma_location), AV_OPT_TYPE_INT, { .i64 = UNSET }, UNSET, CLVF_CHROMA_TOPLEFT,
      FLAGS, "chroma_location" },
    CLVF_INPUT_CONST("chroma_location"),
    { "left", NULL, 0, AV_OPT_TYPE_CONST, { .i64 = CLVF_CHROMA_LEFT }, 0, 0, FLAGS, "chroma_location" },
    { "center", NULL, 0, AV_OPT_TYPE_CONST, { .i64 = CLVF_CHROMA_CENTER }, 0, 0, FLAGS, "chroma_location" },
    { "topleft", NULL, 0, AV_OPT_TYPE_CONST, { .i64 = CLVF_CHROMA_TOPLEFT }, 0, 0, FLAGS, "chroma_location" },
    { "chroma_filter", "filter that brings 4:2:0 chroma to the luma grid and back: point, bilinear, bicubic, "
      "lanczos, spline16, spline36, spline64, area (default bilinear, as zimg)",
      OFFSET(chroma_filter), AV_OPT_TYPE_STRING, { .str = NULL }, 0, 0, FLAGS },
    { "dither", "auto: ordered when the output has fewer bits, else none; none: round; ordered: Bayer 16x16 "
      "(default auto)", OFFSET(dither), AV_OPT_TYPE_INT, { .i64 = UNSET }, UNSET, CLVF_DITHER_ORDERED, FLAGS, "dither" },
    CLVF_UNSET_CONST(UNSET, "dither"),
    CLVF_DITHER_CONSTS("dither"),
    CLVF_DEVICE_OPTION(OFFSET(device_spec), FLAGS),
    CLVF_PROFILE_OPTION(OFFSET(profile), FLAGS),
    CLVF_ASYNC_DEPTH_OPTION(OFFSET(queue.depth), FLAGS),
    { NULL }
};

AVFILTER_DEFINE_CLASS(colorspace_clvf);

CLVF_VIDEO_PADS(colorspace_clvf, NULL, colorspace_clvf_config_output);

const AVFilter ff_vf_colorspace_clvf = {
    .name           = "colorspace_clvf",
    .description    = NULL_IF_CONFIG_SMALL("Convert colour matrix, range, bit depth and format with OpenCL (clvf)."),
    .priv_size      = sizeof(ColorspaceCLVFContext),
    .priv_class     = &colorspace_clvf_class,
    .init           = colorspace_clvf_init,
    .uninit         = colorspace_clvf_uninit,
    .activate       = colorspace_clvf_activate,
    FILTER_INPUTS(colorspace_clvf_inputs),
    FILTER_OUTPUTS(colorspace_clvf_outputs),
    FILTER_QUERY_FUNC(colorspace_clvf_query_formats),
    .flags          = CLVF_FLAG_HWDEVICE,
    .flags_internal = FF_FILTER_FLAG_HWFRAME_AWARE,
};
