/*
 * scale_clvf: OpenCL scaling through clvf. Thin glue: options, format negotiation, frames in and
 * out; every decision about the scaling itself lives in the clvf library (include/clvf/clvf.h).
 * Accepts system-memory NV12/YUV420P frames (processed on the device given with
 * -filter_hw_device, the `device` option, CLVF_DEVICE or the default device) and OpenCL frames
 * (hwupload), and outputs the same kind.
 */
#include "libavutil/hwcontext.h"
#include "libavutil/hwcontext_opencl.h"
#include "libavutil/opt.h"
#include "libavutil/pixdesc.h"
#include "avfilter.h"
#include "formats.h"
#include "internal.h"
#include "video.h"

#include <clvf/clvf.h>

typedef struct ScaleCLVFContext {
    const AVClass *class;
    int w, h;
    char *algorithm;
    double param0, param1;
    char *device_spec;

    clvf_device *device;
    clvf_scale *scale;
    clvf_scale_params params;
    int hw; /* frames are AV_PIX_FMT_OPENCL */
} ScaleCLVFContext;

static void clvf_to_av_log(void *opaque, clvf_log_level level, const char *message)
{
    static const int levels[] = { AV_LOG_ERROR, AV_LOG_WARNING, AV_LOG_VERBOSE, AV_LOG_DEBUG };
    av_log(opaque, levels[level], "%s\n", message);
}

static int clvf_error(AVFilterContext *ctx, clvf_status status, const char *what)
{
    av_log(ctx, AV_LOG_ERROR, "%s: %s\n", what, clvf_last_error());
    switch (status) {
    case CLVF_ERROR_INVALID_ARGUMENT: return AVERROR(EINVAL);
    case CLVF_ERROR_UNSUPPORTED:      return AVERROR(ENOSYS);
    case CLVF_ERROR_NO_DEVICE:        return AVERROR(ENODEV);
    case CLVF_ERROR_OUT_OF_MEMORY:    return AVERROR(ENOMEM);
    default:                          return AVERROR_EXTERNAL;
    }
}

static clvf_chroma_location chroma_location(enum AVChromaLocation loc)
{
    switch (loc) {
    case AVCHROMA_LOC_CENTER:  return CLVF_CHROMA_CENTER;
    case AVCHROMA_LOC_TOPLEFT: return CLVF_CHROMA_TOPLEFT;
    default:                   return CLVF_CHROMA_LEFT; /* also unspecified, as H.264/HEVC */
    }
}

static av_cold int scale_clvf_init(AVFilterContext *ctx)
{
    ScaleCLVFContext *s = ctx->priv;
    clvf_scale_algorithm algorithm;
    clvf_status st;

    clvf_set_log_callback(clvf_to_av_log, NULL);
    clvf_scale_params_default(&s->params);
    if ((st = clvf_scale_algorithm_from_name(s->algorithm, &algorithm)) != CLVF_OK)
        return clvf_error(ctx, st, "option 'algorithm'");
    s->params.algorithm = algorithm;
    if (!isnan(s->param0))
        s->params.param_b = s->param0;
    if (!isnan(s->param1))
        s->params.param_c = s->param1;
    if (s->w == 0 && s->h == 0)
        s->w = s->h = -1;
    return 0;
}

static void release_state(ScaleCLVFContext *s)
{
    clvf_scale_release(s->scale);
    s->scale = NULL;
    clvf_device_release(s->device);
    s->device = NULL;
}

static av_cold void scale_clvf_uninit(AVFilterContext *ctx)
{
    release_state(ctx->priv);
}

/* -1 keeps the aspect ratio, -2 also rounds to a multiple of 2, 0 takes the input size. */
static int output_size(AVFilterContext *ctx, int iw, int ih, int *ow, int *oh)
{
    ScaleCLVFContext *s = ctx->priv;
    int w = s->w, h = s->h;

    if (w < 0 && h < 0)
        w = iw, h = ih;
    if (w == 0) w = iw;
    if (h == 0) h = ih;
    if (w < 0)
        w = (int)av_rescale(h, iw, ih) / -w * -w;
    if (h < 0)
        h = (int)av_rescale(w, ih, iw) / -h * -h;
    if (w < 1 || h < 1 || w > 16384 || h > 16384) {
        av_log(ctx, AV_LOG_ERROR, "output size %dx%d (from w=%d h=%d, input %dx%d) is not allowed: "
               "each side must be 1 to 16384\n", w, h, s->w, s->h, iw, ih);
        return AVERROR(EINVAL);
    }
    *ow = w;
    *oh = h;
    return 0;
}

static int open_device(AVFilterContext *ctx, AVFilterLink *inlink)
{
    ScaleCLVFContext *s = ctx->priv;
    AVBufferRef *device_ref = NULL;
    clvf_status st;

    if (inlink->hw_frames_ctx)
        device_ref = ((AVHWFramesContext *)inlink->hw_frames_ctx->data)->device_ref;
    else if (ctx->hw_device_ctx && ((AVHWDeviceContext *)ctx->hw_device_ctx->data)->type == AV_HWDEVICE_TYPE_OPENCL)
        device_ref = ctx->hw_device_ctx;

    if (device_ref) {
        AVOpenCLDeviceContext *hwctx = ((AVHWDeviceContext *)device_ref->data)->hwctx;
        st = clvf_device_wrap(hwctx->context, hwctx->device_id, hwctx->command_queue, &s->device);
        if (st != CLVF_OK)
            return clvf_error(ctx, st, "using FFmpeg's OpenCL device");
    } else {
        st = clvf_device_open(s->device_spec, &s->device);
        if (st != CLVF_OK)
            return clvf_error(ctx, st, "option 'device'");
    }
    av_log(ctx, AV_LOG_VERBOSE, "OpenCL device: %s\n", clvf_device_name(s->device));
    return 0;
}

static int make_output_frames(AVFilterContext *ctx, AVFilterLink *inlink, AVFilterLink *outlink,
                              enum AVPixelFormat sw_format)
{
    AVHWFramesContext *in_frames = (AVHWFramesContext *)inlink->hw_frames_ctx->data;
    AVBufferRef *ref = av_hwframe_ctx_alloc(in_frames->device_ref);
    AVHWFramesContext *out;
    int err;

    if (!ref)
        return AVERROR(ENOMEM);
    out = (AVHWFramesContext *)ref->data;
    out->format = AV_PIX_FMT_OPENCL;
    out->sw_format = sw_format;
    out->width = outlink->w;
    out->height = outlink->h;
    if ((err = av_hwframe_ctx_init(ref)) < 0) {
        av_log(ctx, AV_LOG_ERROR, "cannot create the output OpenCL frame pool\n");
        av_buffer_unref(&ref);
        return err;
    }
    av_buffer_unref(&outlink->hw_frames_ctx);
    outlink->hw_frames_ctx = ref;
    return 0;
}

static int create_scale(AVFilterContext *ctx)
{
    ScaleCLVFContext *s = ctx->priv;
    clvf_status st;

    clvf_scale_release(s->scale);
    s->scale = NULL;
    if ((st = clvf_scale_create(s->device, &s->params, &s->scale)) != CLVF_OK)
        return clvf_error(ctx, st, "scale_clvf");
    return 0;
}

static int scale_clvf_config_output(AVFilterLink *outlink)
{
    AVFilterContext *ctx = outlink->src;
    AVFilterLink *inlink = ctx->inputs[0];
    ScaleCLVFContext *s = ctx->priv;
    enum AVPixelFormat sw_format = inlink->format;
    int err;

    release_state(s);
    s->hw = inlink->format == AV_PIX_FMT_OPENCL;
    if (s->hw) {
        if (!inlink->hw_frames_ctx) {
            av_log(ctx, AV_LOG_ERROR, "OpenCL frames arrived without a frames context\n");
            return AVERROR(EINVAL);
        }
        sw_format = ((AVHWFramesContext *)inlink->hw_frames_ctx->data)->sw_format;
        if (sw_format != AV_PIX_FMT_NV12 && sw_format != AV_PIX_FMT_YUV420P) {
            av_log(ctx, AV_LOG_ERROR, "OpenCL frames of %s are not supported; allowed: nv12, yuv420p\n",
                   av_get_pix_fmt_name(sw_format));
            return AVERROR(ENOSYS);
        }
    }
    if ((err = output_size(ctx, inlink->w, inlink->h, &outlink->w, &outlink->h)) < 0)
        return err;
    if (inlink->sample_aspect_ratio.num)
        outlink->sample_aspect_ratio = av_mul_q((AVRational){ outlink->h * inlink->w, outlink->w * inlink->h },
                                                inlink->sample_aspect_ratio);
    else
        outlink->sample_aspect_ratio = inlink->sample_aspect_ratio;

    if ((err = open_device(ctx, inlink)) < 0)
        return err;
    if (s->hw && (err = make_output_frames(ctx, inlink, outlink, sw_format)) < 0)
        return err;

    s->params.format = sw_format == AV_PIX_FMT_NV12 ? CLVF_PIX_NV12 : CLVF_PIX_YUV420P;
    s->params.src_width = inlink->w;
    s->params.src_height = inlink->h;
    s->params.dst_width = outlink->w;
    s->params.dst_height = outlink->h;
    s->params.src_storage = s->params.dst_storage = s->hw ? CLVF_STORAGE_CL_IMAGE : CLVF_STORAGE_HOST;
    s->params.chroma_location = CLVF_CHROMA_LEFT;
    av_log(ctx, AV_LOG_VERBOSE, "%dx%d -> %dx%d %s\n", inlink->w, inlink->h, outlink->w, outlink->h,
           av_get_pix_fmt_name(sw_format));
    return create_scale(ctx);
}

static void describe_frame(const ScaleCLVFContext *s, const AVFrame *f, clvf_frame *out)
{
    int nb_planes = s->params.format == CLVF_PIX_NV12 ? 2 : 3;
    memset(out, 0, sizeof(*out));
    out->storage = s->params.src_storage;
    for (int i = 0; i < nb_planes; i++) {
        if (s->hw) {
            out->planes[i].mem = (cl_mem)f->data[i];
        } else {
            out->planes[i].data = f->data[i];
            out->planes[i].pitch = f->linesize[i];
        }
    }
}

static int scale_clvf_filter_frame(AVFilterLink *inlink, AVFrame *in)
{
    AVFilterContext *ctx = inlink->dst;
    AVFilterLink *outlink = ctx->outputs[0];
    ScaleCLVFContext *s = ctx->priv;
    clvf_frame src, dst;
    AVFrame *out = NULL;
    clvf_status st;
    int err;

    if (in->width != inlink->w || in->height != inlink->h) {
        av_log(ctx, AV_LOG_ERROR, "frame size changed mid-stream from %dx%d to %dx%d; not supported\n",
               inlink->w, inlink->h, in->width, in->height);
        err = AVERROR(EINVAL);
        goto fail;
    }
    if (!s->hw && (in->linesize[0] < 0 || in->linesize[1] < 0 || in->linesize[2] < 0)) {
        av_log(ctx, AV_LOG_ERROR, "frames with negative line sizes (flipped) are not supported\n");
        err = AVERROR(EINVAL);
        goto fail;
    }
    if (chroma_location(in->chroma_location) != s->params.chroma_location) {
        /* Re-planned only when the stream's chroma siting differs from the one assumed. */
        s->params.chroma_location = chroma_location(in->chroma_location);
        if ((err = create_scale(ctx)) < 0)
            goto fail;
    }

    if (s->hw) {
        if (!(out = av_frame_alloc())) {
            err = AVERROR(ENOMEM);
            goto fail;
        }
        if ((err = av_hwframe_get_buffer(outlink->hw_frames_ctx, out, 0)) < 0)
            goto fail;
    } else if (!(out = ff_get_video_buffer(outlink, outlink->w, outlink->h))) {
        err = AVERROR(ENOMEM);
        goto fail;
    }
    if ((err = av_frame_copy_props(out, in)) < 0)
        goto fail;
    out->width = outlink->w;
    out->height = outlink->h;
    out->sample_aspect_ratio = outlink->sample_aspect_ratio;

    describe_frame(s, in, &src);
    describe_frame(s, out, &dst);
    if ((st = clvf_scale_process(s->scale, &src, &dst)) != CLVF_OK) {
        err = clvf_error(ctx, st, "scaling a frame");
        goto fail;
    }
    av_frame_free(&in);
    return ff_filter_frame(outlink, out);

fail:
    av_frame_free(&in);
    av_frame_free(&out);
    return err;
}

#define OFFSET(x) offsetof(ScaleCLVFContext, x)
#define FLAGS (AV_OPT_FLAG_FILTERING_PARAM | AV_OPT_FLAG_VIDEO_PARAM)
static const AVOption scale_clvf_options[] = {
    { "w", "output width (0: input width; -1: keep aspect; -2: keep aspect, even)",
      OFFSET(w), AV_OPT_TYPE_INT, { .i64 = -1 }, -2, 16384, FLAGS },
    { "h", "output height (0: input height; -1: keep aspect; -2: keep aspect, even)",
      OFFSET(h), AV_OPT_TYPE_INT, { .i64 = -1 }, -2, 16384, FLAGS },
    { "algorithm", "resampling filter: bilinear, bicubic",
      OFFSET(algorithm), AV_OPT_TYPE_STRING, { .str = "bicubic" }, 0, 0, FLAGS },
    { "param0", "bicubic B (default 1/3)", OFFSET(param0), AV_OPT_TYPE_DOUBLE, { .dbl = NAN }, 0, 1, FLAGS },
    { "param1", "bicubic C (default 1/3)", OFFSET(param1), AV_OPT_TYPE_DOUBLE, { .dbl = NAN }, 0, 1, FLAGS },
    { "device", "OpenCL device for system-memory frames: default, cpu, gpu, P.D or a name part "
      "(default: -filter_hw_device, else CLVF_DEVICE, else the first GPU, else the first device)",
      OFFSET(device_spec), AV_OPT_TYPE_STRING, { .str = NULL }, 0, 0, FLAGS },
    { NULL }
};

AVFILTER_DEFINE_CLASS(scale_clvf);

static const AVFilterPad scale_clvf_inputs[] = {
    {
        .name         = "default",
        .type         = AVMEDIA_TYPE_VIDEO,
        .filter_frame = scale_clvf_filter_frame,
    },
};

static const AVFilterPad scale_clvf_outputs[] = {
    {
        .name         = "default",
        .type         = AVMEDIA_TYPE_VIDEO,
        .config_props = scale_clvf_config_output,
    },
};

const AVFilter ff_vf_scale_clvf = {
    .name           = "scale_clvf",
    .description    = NULL_IF_CONFIG_SMALL("Scale video with OpenCL (clvf): bilinear or bicubic, exact chroma siting."),
    .priv_size      = sizeof(ScaleCLVFContext),
    .priv_class     = &scale_clvf_class,
    .init           = scale_clvf_init,
    .uninit         = scale_clvf_uninit,
    FILTER_INPUTS(scale_clvf_inputs),
    FILTER_OUTPUTS(scale_clvf_outputs),
    FILTER_PIXFMTS(AV_PIX_FMT_NV12, AV_PIX_FMT_YUV420P, AV_PIX_FMT_OPENCL),
    .flags_internal = FF_FILTER_FLAG_HWFRAME_AWARE,
};
