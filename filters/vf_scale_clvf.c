/*
 * scale_clvf: OpenCL scaling through clvf. Thin glue: options, format negotiation, frames in and
 * out; every decision about the scaling itself lives in the clvf library (include/clvf/clvf.h).
 * Accepts system-memory NV12/YUV420P frames (processed on the device given with
 * -filter_hw_device, the `device` option, CLVF_DEVICE or the default device) and OpenCL frames
 * (hwupload), and outputs the same kind.
 */
#include "libavutil/hwcontext.h"
#include "libavutil/opt.h"
#include "libavutil/pixdesc.h"
#include "avfilter.h"
#include "clvf_ffmpeg.h"
#include "clvf_filter.h"
#include "formats.h"
#include "scale_eval.h"
#include "video.h"

typedef struct ScaleCLVFContext {
    const AVClass *class;
    char *w_expr, *h_expr;
    int force_original_aspect_ratio, force_divisible_by;
    char *algorithm;
    double param0, param1;
    char *preset;
    char *device_spec;
    int profile;
    /* Conversion in the same operation: output format, matrices, ranges, dither (UNSET: none). */
    int out_format, matrix, in_matrix, range, in_range, dither;

    clvf_scale_request request; /* the options, w and h evaluated at config */
    clvf_stream planned;        /* the input stream the operation was planned for */
    clvf_stream out;            /* and its output */
    clvf_device *device;
    clvf_scale *scale;
    clvf_scale_params params; /* of scale */
    int hw; /* where frames are: CLVF_FRAMES_* */
    enum AVPixelFormat sw_format;
    CLVFQueue queue;
} ScaleCLVFContext;

#define UNSET CLVF_OPT_INPUT

static const enum AVPixelFormat scale_formats[] = {
    AV_PIX_FMT_NV12, AV_PIX_FMT_YUV420P, AV_PIX_FMT_P010LE, AV_PIX_FMT_YUV444P, AV_PIX_FMT_NONE
};

/* Options start "unset" (NULL, NaN, or the int sentinels below) so that a preset fills only what
 * the user did not give; the documented defaults are filled in afterwards. */
#define UNSET_OAR (-1)
#define UNSET_DIVISIBLE 0

static int fill_defaults(ScaleCLVFContext *s)
{
    if (!s->w_expr && !(s->w_expr = av_strdup("iw")))
        return AVERROR(ENOMEM);
    if (!s->h_expr && !(s->h_expr = av_strdup("ih")))
        return AVERROR(ENOMEM);
    if (!s->algorithm && !(s->algorithm = av_strdup("bicubic")))
        return AVERROR(ENOMEM);
    if (s->force_original_aspect_ratio == UNSET_OAR)
        s->force_original_aspect_ratio = 0;
    if (s->force_divisible_by == UNSET_DIVISIBLE)
        s->force_divisible_by = 1;
    return 0;
}

static av_cold int scale_clvf_init(AVFilterContext *ctx)
{
    ScaleCLVFContext *s = ctx->priv;
    clvf_status st;
    int err;

    ff_clvf_route_log(ctx);
    if (s->preset && (err = ff_clvf_apply_preset(ctx, "scale_clvf", s->preset)) < 0)
        return err;
    if (s->out_format != AV_PIX_FMT_NONE && !ff_clvf_format(s->out_format)) {
        av_log(ctx, AV_LOG_ERROR, "option 'format': %s is not supported; allowed: nv12, yuv420p, p010le, yuv444p, "
               "rgba, bgra\n", av_get_pix_fmt_name(s->out_format));
        return AVERROR(EINVAL);
    }
    if ((err = fill_defaults(s)) < 0)
        return err;
    clvf_scale_request_default(&s->request);
    if ((st = clvf_scale_algorithm_from_name(s->algorithm, &s->request.algorithm)) != CLVF_OK)
        return ff_clvf_error(ctx, st, "option 'algorithm'");
    s->request.width_text = s->w_expr;
    s->request.height_text = s->h_expr;
    s->request.force_original_aspect_ratio = s->force_original_aspect_ratio;
    s->request.force_divisible_by = s->force_divisible_by;
    s->request.param0 = s->param0;
    s->request.param1 = s->param1;
    s->request.format = s->out_format != AV_PIX_FMT_NONE ? ff_clvf_format(s->out_format) : 0;
    s->request.matrix = s->matrix;
    s->request.in_matrix = s->in_matrix;
    s->request.range = s->range;
    s->request.in_range = s->in_range;
    s->request.dither = s->dither;
    return 0;
}

static void release_state(ScaleCLVFContext *s)
{
    const char *profile = s->scale ? clvf_scale_profile(s->scale) : "";

    ff_clvf_queue_free(&s->queue);
    s->queue.op = NULL;
    if (*profile)
        av_log(s, AV_LOG_INFO, "kernel times (CLVF_PROFILE):\n%s", profile);
    clvf_scale_release(s->scale);
    s->scale = NULL;
    clvf_device_release(s->device);
    s->device = NULL;
}

static av_cold void scale_clvf_uninit(AVFilterContext *ctx)
{
    ff_clvf_route_log(ctx);
    release_state(ctx->priv);
    ff_clvf_route_log(NULL);
}

/* The queue calls operations through void pointers: these give it the real types. One output a
 * frame, none at the end. */
static clvf_status scale_submit(void *op, const clvf_frame *src, const clvf_frame *dst, int *got)
{
    *got = src != NULL;
    return src ? clvf_scale_submit(op, src, dst) : CLVF_OK;
}

static clvf_status scale_complete(void *op)
{
    return clvf_scale_complete(op);
}

/* Plans for `input` (the library's rules: size, aspect, conversion, tags) into s->params and
 * s->out. */
static int plan(AVFilterContext *ctx, const clvf_stream *input)
{
    ScaleCLVFContext *s = ctx->priv;
    clvf_status st = clvf_scale_plan(&s->request, input, &s->params, &s->out);

    if (st != CLVF_OK)
        return ff_clvf_error(ctx, st, NULL);
    s->params.src_storage = s->params.dst_storage = ff_clvf_storage(s->hw);
    s->planned = *input;
    return 0;
}

static int create_scale(AVFilterContext *ctx)
{
    ScaleCLVFContext *s = ctx->priv;
    clvf_status st;

    clvf_scale_release(s->scale);
    s->scale = NULL;
    s->queue.op = NULL;
    if ((st = clvf_scale_create(s->device, &s->params, &s->scale)) != CLVF_OK)
        return ff_clvf_error(ctx, st, "scale_clvf");
    s->queue.op = s->scale;
    s->queue.submit = scale_submit;
    s->queue.complete = scale_complete;
    ff_clvf_queue_frames(&s->queue, s->hw, s->device);
    s->queue.in_format = s->params.format;
    s->queue.out_format = s->params.dst_format ? s->params.dst_format : s->params.format;
    s->queue.tags = s->out;
    return 0;
}

static int scale_clvf_config_output(AVFilterLink *outlink)
{
    AVFilterContext *ctx = outlink->src;
    AVFilterLink *inlink = ctx->inputs[0];
    ScaleCLVFContext *s = ctx->priv;
    clvf_stream input;
    int err;
    ff_clvf_route_log(ctx);

    release_state(s);
    if ((err = ff_clvf_input_format(ctx, inlink, scale_formats, &s->hw, &s->sw_format)) < 0)
        return err;
    if ((err = ff_clvf_check_output_kind(ctx, s->hw, outlink)) < 0)
        return err;
    /* w and h are FFmpeg expressions, evaluated as the scale filter evaluates them; the library
     * does the rest. */
    if ((err = ff_scale_eval_dimensions(ctx, s->w_expr, s->h_expr, inlink, outlink, &s->request.width,
                                        &s->request.height)) < 0)
        return err; /* the message names the expression */
    input = ff_clvf_stream(inlink, s->sw_format, NULL);
    if ((err = plan(ctx, &input)) < 0)
        return err;
    outlink->w = s->out.width;
    outlink->h = s->out.height;
    outlink->sample_aspect_ratio = s->out.sar_num > 0 ? (AVRational){ s->out.sar_num, s->out.sar_den }
                                                      : inlink->sample_aspect_ratio;

    if ((err = ff_clvf_open_device(ctx, inlink, s->device_spec, s->profile, &s->device)) < 0)
        return err;
    if (s->hw && (err = ff_clvf_output_frames(ctx, inlink, outlink, ff_clvf_av_format(s->out.format), s->device)) < 0)
        return err;
    av_log(ctx, AV_LOG_VERBOSE, "%dx%d -> %dx%d %s -> %s, %s\n", inlink->w, inlink->h, outlink->w, outlink->h,
           av_get_pix_fmt_name(s->sw_format), av_get_pix_fmt_name(ff_clvf_av_format(s->out.format)), s->algorithm);
    return create_scale(ctx);
}

/* Plans again when a frame's tags differ from the stream planned for. */
static int scale_clvf_prepare(AVFilterContext *ctx, const AVFrame *in)
{
    AVFilterLink *inlink = ctx->inputs[0];
    ScaleCLVFContext *s = ctx->priv;
    clvf_scale_params planned;
    clvf_stream input;
    int err;

    if ((err = ff_clvf_check_frame(ctx, inlink, in, s->hw)) < 0)
        return err;
    input = ff_clvf_stream(inlink, s->sw_format, in);
    if (!memcmp(&input, &s->planned, sizeof(input)))
        return 0;
    /* The operation is made again where the params change (the chroma siting, or when converting
     * the coding); the output tags follow the frame's in any case. */
    planned = s->params;
    if ((err = plan(ctx, &input)) < 0)
        return err;
    if (memcmp(&planned, &s->params, sizeof(planned)) &&
        ((err = ff_clvf_drain(ctx, &s->queue)) < 0 || (err = create_scale(ctx)) < 0))
        return err;
    s->queue.tags = s->out;
    return 0;
}

static int scale_clvf_activate(AVFilterContext *ctx)
{
    ScaleCLVFContext *s = ctx->priv;
    return ff_clvf_activate(ctx, &s->queue, scale_clvf_prepare);
}

#define OFFSET(x) offsetof(ScaleCLVFContext, x)
#define FLAGS (AV_OPT_FLAG_FILTERING_PARAM | AV_OPT_FLAG_VIDEO_PARAM)
static const AVOption scale_clvf_options[] = {
    { "preset", "named option set (see presets/scale_clvf.preset), or a preset file path (PATH or PATH#NAME); "
      "options given explicitly override the preset's", OFFSET(preset), AV_OPT_TYPE_STRING, { .str = NULL }, 0, 0, FLAGS },
    { "w", "output width expression (iw, ih, a, sar, dar...; 0: input width; -n: keep the aspect ratio, "
      "divisible by n) (default iw)", OFFSET(w_expr), AV_OPT_TYPE_STRING, { .str = NULL }, 0, 0, FLAGS },
    { "width", "same as w", OFFSET(w_expr), AV_OPT_TYPE_STRING, { .str = NULL }, 0, 0, FLAGS },
    { "h", "output height expression, as w (default ih)", OFFSET(h_expr), AV_OPT_TYPE_STRING, { .str = NULL }, 0, 0, FLAGS },
    { "height", "same as h", OFFSET(h_expr), AV_OPT_TYPE_STRING, { .str = NULL }, 0, 0, FLAGS },
    { "force_original_aspect_ratio", "shrink or grow w/h to keep the input's aspect ratio (default disable)",
      OFFSET(force_original_aspect_ratio), AV_OPT_TYPE_INT, { .i64 = UNSET_OAR }, UNSET_OAR, 2, FLAGS, "force_oar" },
        CLVF_UNSET_CONST(UNSET_OAR, "force_oar"),
        { "disable",  NULL, 0, AV_OPT_TYPE_CONST, { .i64 = 0 }, 0, 0, FLAGS, "force_oar" },
        { "decrease", NULL, 0, AV_OPT_TYPE_CONST, { .i64 = 1 }, 0, 0, FLAGS, "force_oar" },
        { "increase", NULL, 0, AV_OPT_TYPE_CONST, { .i64 = 2 }, 0, 0, FLAGS, "force_oar" },
    { "force_divisible_by", "with force_original_aspect_ratio: make w and h multiples of this, 1 to 256 (default 1)",
      OFFSET(force_divisible_by), AV_OPT_TYPE_INT, { .i64 = UNSET_DIVISIBLE }, UNSET_DIVISIBLE, 256, FLAGS, "divisible" },
    CLVF_UNSET_CONST(UNSET_DIVISIBLE, "divisible"),
    { "algorithm", "resampling filter: point (or neighbor), bilinear, bicubic, lanczos, spline16, spline36, "
      "spline64, area (default bicubic)", OFFSET(algorithm), AV_OPT_TYPE_STRING, { .str = NULL }, 0, 0, FLAGS },
    { "param0", "bicubic B, 0 to 1 (default 1/3); lanczos taps, 1 to " AV_STRINGIFY(CLVF_MAX_LANCZOS_TAPS) " (default 3)",
      OFFSET(param0), AV_OPT_TYPE_DOUBLE, { .dbl = NAN }, 0, CLVF_MAX_LANCZOS_TAPS, FLAGS },
    { "param1", "bicubic C, 0 to 1 (default 1/3)", OFFSET(param1), AV_OPT_TYPE_DOUBLE, { .dbl = NAN }, 0, 1, FLAGS },
    { "format", "convert to this pixel format in the same pass: nv12, yuv420p, p010le, yuv444p, rgba, bgra "
      "(default: the input's)", OFFSET(out_format), AV_OPT_TYPE_PIXEL_FMT, { .i64 = AV_PIX_FMT_NONE }, -1, INT_MAX, FLAGS },
    { "matrix", "convert to this matrix: bt709, bt601, smpte240m, bt2020nc (default: the input's)",
      OFFSET(matrix), AV_OPT_TYPE_INT, { .i64 = UNSET }, UNSET, CLVF_MATRIX_BT2020_NCL, FLAGS, "matrix" },
    CLVF_MATRIX_CONSTS("matrix"),
    { "in_matrix", "the input's matrix when converting (default: the frame's; untagged: bt709 from 720 lines, "
      "else bt601)", OFFSET(in_matrix), AV_OPT_TYPE_INT, { .i64 = UNSET }, UNSET, CLVF_MATRIX_BT2020_NCL, FLAGS,
      "in_matrix" },
    CLVF_MATRIX_CONSTS("in_matrix"),
    { "range", "convert to this range: tv or pc (default: the input's)", OFFSET(range), AV_OPT_TYPE_INT,
      { .i64 = UNSET }, UNSET, CLVF_RANGE_PC, FLAGS, "range" },
    CLVF_RANGE_CONSTS("range"),
    { "in_range", "the input's range when converting (default: the frame's; untagged: tv)", OFFSET(in_range),
      AV_OPT_TYPE_INT, { .i64 = UNSET }, UNSET, CLVF_RANGE_PC, FLAGS, "in_range" },
    CLVF_RANGE_CONSTS("in_range"),
    { "dither", "when converting: auto (ordered when the output has fewer bits), none, ordered (default auto)",
      OFFSET(dither), AV_OPT_TYPE_INT, { .i64 = UNSET }, UNSET, CLVF_DITHER_ORDERED, FLAGS, "dither" },
    CLVF_UNSET_CONST(UNSET, "dither"),
    CLVF_DITHER_CONSTS("dither"),
    CLVF_DEVICE_OPTION(OFFSET(device_spec), FLAGS),
    CLVF_PROFILE_OPTION(OFFSET(profile), FLAGS),
    CLVF_ASYNC_DEPTH_OPTION(OFFSET(queue.depth), FLAGS),
    { NULL }
};

AVFILTER_DEFINE_CLASS(scale_clvf);

static int scale_clvf_query_formats(AVFilterContext *ctx)
{
    static const enum AVPixelFormat in_formats[] = {
        AV_PIX_FMT_NV12, AV_PIX_FMT_YUV420P, AV_PIX_FMT_P010LE, AV_PIX_FMT_YUV444P, AV_PIX_FMT_OPENCL, AV_PIX_FMT_NONE
    };
    return ff_clvf_query_formats(ctx, in_formats, ((ScaleCLVFContext *)ctx->priv)->out_format);
}

CLVF_VIDEO_PADS(scale_clvf, NULL, scale_clvf_config_output);

const AVFilter ff_vf_scale_clvf = {
    .name           = "scale_clvf",
    .description    = NULL_IF_CONFIG_SMALL("Scale video with OpenCL (clvf): zimg's filters, exact chroma siting."),
    .priv_size      = sizeof(ScaleCLVFContext),
    .priv_class     = &scale_clvf_class,
    .init           = scale_clvf_init,
    .uninit         = scale_clvf_uninit,
    .activate       = scale_clvf_activate,
    FILTER_INPUTS(scale_clvf_inputs),
    FILTER_OUTPUTS(scale_clvf_outputs),
    FILTER_QUERY_FUNC(scale_clvf_query_formats),
    .flags          = CLVF_FLAG_HWDEVICE,
    .flags_internal = FF_FILTER_FLAG_HWFRAME_AWARE,
};
