/* C COM call macros (IDirect3DDeviceManager9_LockDevice, ...) for the DXVA2 frames below. */
#define COBJMACROS
#include <stdlib.h>
#include <string.h>

#include "libavutil/dict.h"
#include "libavutil/hwcontext.h"
#include "libavutil/hwcontext_opencl.h"
#if CONFIG_DXVA2
#include "libavutil/hwcontext_dxva2.h"
#endif
#if CONFIG_D3D11VA
#include "libavutil/hwcontext_d3d11va.h"
#endif
#if CONFIG_CUDA
#include <ffnvcodec/dynlink_cuda.h>
#include "libavutil/hwcontext_cuda.h"
#endif
#include "libavutil/imgutils.h"
#include "libavutil/opt.h"
#include "libavutil/avstring.h"
#include "libavutil/pixdesc.h"
#include "clvf_ffmpeg.h"
#include "clvf_filter.h"
#include "formats.h"
#include "video.h"

/* The filter instance calling into the library on this thread: the library's messages carry its
 * name, as the filter's own do. (The library's callback is one for the process; FFmpeg may run
 * filter graphs on several threads.) */
static _Thread_local AVFilterContext *log_instance;

static void clvf_to_av_log(void *opaque, clvf_log_level level, const char *message)
{
    static const int levels[] = { AV_LOG_ERROR, AV_LOG_WARNING, AV_LOG_VERBOSE, AV_LOG_DEBUG };
    av_log(log_instance, levels[level], "%s\n", message);
}

void ff_clvf_route_log(AVFilterContext *ctx)
{
    log_instance = ctx;
    clvf_set_log_callback(clvf_to_av_log, NULL);
}

int ff_clvf_error(AVFilterContext *ctx, clvf_status status, const char *what)
{
    if (what)
        av_log(ctx, AV_LOG_ERROR, "%s: %s\n", what, clvf_last_error());
    else
        av_log(ctx, AV_LOG_ERROR, "%s\n", clvf_last_error());
    switch (status) {
    case CLVF_ERROR_INVALID_ARGUMENT: return AVERROR(EINVAL);
    case CLVF_ERROR_UNSUPPORTED:      return AVERROR(ENOSYS);
    case CLVF_ERROR_NO_DEVICE:        return AVERROR(ENODEV);
    case CLVF_ERROR_OUT_OF_MEMORY:    return AVERROR(ENOMEM);
    default:                          return AVERROR_EXTERNAL;
    }
}

/* 1: the option still holds its default (the sentinel), 0: the user set it, <0: no such option. */
static int option_is_unset(void *priv, const char *key)
{
    const AVOption *o = av_opt_find(priv, key, NULL, 0, 0);
    int64_t i;
    double d;
    uint8_t *str;

    if (!o || o->type == AV_OPT_TYPE_CONST)
        return -1;
    switch (o->type) {
    case AV_OPT_TYPE_STRING:
        if (av_opt_get(priv, key, AV_OPT_ALLOW_NULL, &str) < 0)
            return -1;
        av_free(str);
        return !str;
    case AV_OPT_TYPE_DOUBLE:
    case AV_OPT_TYPE_FLOAT:
        if (av_opt_get_double(priv, key, 0, &d) < 0)
            return -1;
        return isnan(o->default_val.dbl) ? isnan(d) : d == o->default_val.dbl;
    default:
        if (av_opt_get_int(priv, key, 0, &i) < 0)
            return -1;
        return i == o->default_val.i64;
    }
}

int ff_clvf_apply_preset(AVFilterContext *ctx, const char *filter, const char *name)
{
    const char *options;
    AVDictionary *dict = NULL;
    const AVDictionaryEntry *e = NULL;
    clvf_status st;
    int err = 0;

    if ((st = clvf_preset_options(filter, name, &options)) != CLVF_OK)
        return ff_clvf_error(ctx, st, "option 'preset'");
    if ((err = av_dict_parse_string(&dict, options, "=", ":", 0)) < 0) {
        av_log(ctx, AV_LOG_ERROR, "preset '%s': cannot parse \"%s\"\n", name, options);
        return err;
    }
    while ((e = av_dict_get(dict, "", e, AV_DICT_IGNORE_SUFFIX))) {
        int unset = strcmp(e->key, "preset") ? option_is_unset(ctx->priv, e->key) : -1;
        if (unset < 0) {
            av_log(ctx, AV_LOG_ERROR, "preset '%s': '%s' is not an option of %s\n", name, e->key, filter);
            err = AVERROR(EINVAL);
            break;
        }
        if (unset && (err = av_opt_set(ctx->priv, e->key, e->value, 0)) < 0) {
            av_log(ctx, AV_LOG_ERROR, "preset '%s': option '%s' cannot be '%s'\n", name, e->key, e->value);
            break;
        }
    }
    av_dict_free(&dict);
    return err;
}

const enum AVPixelFormat ff_clvf_formats_420[] = { AV_PIX_FMT_NV12, AV_PIX_FMT_YUV420P, AV_PIX_FMT_NONE };
const enum AVPixelFormat ff_clvf_formats_all[] = {
    AV_PIX_FMT_NV12, AV_PIX_FMT_YUV420P, AV_PIX_FMT_P010LE, AV_PIX_FMT_YUV444P, AV_PIX_FMT_RGBA, AV_PIX_FMT_BGRA,
    AV_PIX_FMT_NONE
};

clvf_pixel_format ff_clvf_format(enum AVPixelFormat f)
{
    switch (f) {
    case AV_PIX_FMT_NV12:    return CLVF_PIX_NV12;
    case AV_PIX_FMT_YUV420P: return CLVF_PIX_YUV420P;
    case AV_PIX_FMT_P010LE:  return CLVF_PIX_P010;
    case AV_PIX_FMT_YUV444P: return CLVF_PIX_YUV444P;
    case AV_PIX_FMT_RGBA:    return CLVF_PIX_RGBA;
    case AV_PIX_FMT_BGRA:    return CLVF_PIX_BGRA;
    default:                 return 0;
    }
}

enum AVPixelFormat ff_clvf_av_format(clvf_pixel_format f)
{
    for (const enum AVPixelFormat *p = ff_clvf_formats_all; *p != AV_PIX_FMT_NONE; p++)
        if (ff_clvf_format(*p) == f)
            return *p;
    return AV_PIX_FMT_NONE;
}

int ff_clvf_frames_kind(enum AVPixelFormat format)
{
    return format == AV_PIX_FMT_OPENCL      ? CLVF_FRAMES_OPENCL
           : format == AV_PIX_FMT_DXVA2_VLD ? CLVF_FRAMES_DXVA2
           : format == AV_PIX_FMT_D3D11     ? CLVF_FRAMES_D3D11
           : format == AV_PIX_FMT_CUDA      ? CLVF_FRAMES_CUDA
                                            : CLVF_FRAMES_HOST;
}

clvf_storage ff_clvf_storage(int hw)
{
    return hw == CLVF_FRAMES_OPENCL  ? CLVF_STORAGE_CL_IMAGE
           : hw == CLVF_FRAMES_DXVA2 ? CLVF_STORAGE_DXVA2
           : hw == CLVF_FRAMES_D3D11 ? CLVF_STORAGE_D3D11
           : hw == CLVF_FRAMES_CUDA  ? CLVF_STORAGE_CUDA
                                     : CLVF_STORAGE_HOST;
}

static const char *frames_name(int hw)
{
    return hw == CLVF_FRAMES_OPENCL  ? "OpenCL"
           : hw == CLVF_FRAMES_DXVA2 ? "DXVA2"
           : hw == CLVF_FRAMES_D3D11 ? "D3D11"
           : hw == CLVF_FRAMES_CUDA  ? "CUDA"
                                     : "system-memory";
}

int ff_clvf_check_output_kind(AVFilterContext *ctx, int hw, AVFilterLink *outlink)
{
    int out = ff_clvf_frames_kind(outlink->format);

    if (hw == out)
        return 0;
    av_log(ctx, AV_LOG_ERROR, "the input is %s frames but the output %s frames: put hwupload or hwdownload around "
           "the filter\n", frames_name(hw), frames_name(out));
    return AVERROR(EINVAL);
}

/* in_formats with the Direct3D and CUDA frame formats this build accepts. */
static AVFilterFormats *with_d3d_formats(const enum AVPixelFormat *formats)
{
    AVFilterFormats *list = ff_make_format_list(formats);
#if CONFIG_CUDA
    if (list && ff_add_format(&list, AV_PIX_FMT_CUDA) < 0)
        return NULL;
#endif
#if CONFIG_DXVA2
    if (list && ff_add_format(&list, AV_PIX_FMT_DXVA2_VLD) < 0)
        return NULL;
#endif
#if CONFIG_D3D11VA
    if (list && ff_add_format(&list, AV_PIX_FMT_D3D11) < 0)
        return NULL;
#endif
    return list;
}

int ff_clvf_query_formats(AVFilterContext *ctx, const enum AVPixelFormat *in_formats, enum AVPixelFormat out_format)
{
    enum AVPixelFormat out_formats[] = { out_format, AV_PIX_FMT_OPENCL, AV_PIX_FMT_NONE };
    int err;

    if (out_format == AV_PIX_FMT_NONE) /* one list shared by both links: the same format */
        return ff_set_common_formats(ctx, with_d3d_formats(in_formats));
    if ((err = ff_formats_ref(with_d3d_formats(in_formats), &ctx->inputs[0]->outcfg.formats)) < 0)
        return err;
    return ff_formats_ref(with_d3d_formats(out_formats), &ctx->outputs[0]->incfg.formats);
}

static void format_names(const enum AVPixelFormat *formats, char *names, size_t size)
{
    names[0] = 0;
    for (const enum AVPixelFormat *f = formats; *f != AV_PIX_FMT_NONE; f++)
        av_strlcatf(names, size, "%s%s", f == formats ? "" : ", ", av_get_pix_fmt_name(*f));
}

/* FFmpeg converts a system-memory input the filter does not take with a scale filter it inserts
 * (auto_scale_N). Where that conversion would lose bit depth or chroma resolution, the filter
 * refuses at configuration instead, naming what it takes and the format= that accepts the loss. */
static int refuse_lossy_conversion(AVFilterContext *ctx, AVFilterLink *inlink, const enum AVPixelFormat *allowed)
{
    AVFilterContext *conv = inlink->src;
    const AVPixFmtDescriptor *from, *to = av_pix_fmt_desc_get(inlink->format);
    char names[256], lost[64];

    if (!conv || !conv->filter || strcmp(conv->filter->name, "scale") || !conv->name ||
        strncmp(conv->name, "auto_scale", 10) || conv->nb_inputs != 1 || !conv->inputs[0])
        return 0;
    from = av_pix_fmt_desc_get(conv->inputs[0]->format);
    if (!from || !to || (from->flags & AV_PIX_FMT_FLAG_HWACCEL))
        return 0;
    if (to->comp[0].depth < from->comp[0].depth)
        snprintf(lost, sizeof(lost), "bit depth (%d to %d bits)", from->comp[0].depth, to->comp[0].depth);
    else if (from->nb_components >= 3 &&
             (to->log2_chroma_w > from->log2_chroma_w || to->log2_chroma_h > from->log2_chroma_h))
        snprintf(lost, sizeof(lost), "chroma resolution");
    else
        return 0;
    format_names(allowed, names, sizeof(names));
    av_log(ctx, AV_LOG_ERROR, "the input is %s, which this filter does not take (it takes %s); FFmpeg would "
           "convert it to %s, losing %s. To accept that, put format=%s before the filter\n",
           from->name, names, to->name, lost, to->name);
    return AVERROR(ENOSYS);
}

int ff_clvf_input_format(AVFilterContext *ctx, AVFilterLink *inlink, const enum AVPixelFormat *allowed, int *hw,
                         enum AVPixelFormat *sw_format)
{
    char names[256];

    *hw = ff_clvf_frames_kind(inlink->format);
    *sw_format = inlink->format;
    if (!*hw)
        return refuse_lossy_conversion(ctx, inlink, allowed);
    if (!CLVF_LINK_HW_FRAMES(inlink)) {
        av_log(ctx, AV_LOG_ERROR, "%s frames arrived without a frames context\n", frames_name(*hw));
        return AVERROR(EINVAL);
    }
    *sw_format = ((AVHWFramesContext *)CLVF_LINK_HW_FRAMES(inlink)->data)->sw_format;
    for (const enum AVPixelFormat *f = allowed; *f != AV_PIX_FMT_NONE; f++)
        if (*f == *sw_format)
            return 0;
    format_names(allowed, names, sizeof(names));
    av_log(ctx, AV_LOG_ERROR, "%s frames of %s are not supported; allowed: %s\n", frames_name(*hw),
           av_get_pix_fmt_name(*sw_format), names);
    return AVERROR(ENOSYS);
}


#if CONFIG_CUDA
/* Orders the device's work with the CUDA frames' stream: semaphores where the OpenCL device can
 * export them, else host waits; CLVF_CUDA_SYNC=semaphores|stream|context asks for one (a workaround for a
 * driver whose semaphores misbehave, and for measuring one against the other). */
static clvf_status set_cuda_sync(AVFilterContext *ctx, clvf_device *device, CUstream stream)
{
    const char *env = getenv("CLVF_CUDA_SYNC");
    clvf_cuda_sync want = CLVF_CUDA_SYNC_AUTO, used;
    clvf_status st;
    if (env && !strcmp(env, "semaphores"))
        want = CLVF_CUDA_SYNC_SEMAPHORES;
    else if (env && !strcmp(env, "stream"))
        want = CLVF_CUDA_SYNC_STREAM;
    else if (env && !strcmp(env, "context"))
        want = CLVF_CUDA_SYNC_CONTEXT;
    else if (env && *env && strcmp(env, "auto"))
        av_log(ctx, AV_LOG_WARNING, "CLVF_CUDA_SYNC=%s is none of auto, semaphores, stream, context: using auto\n", env);
    if ((st = clvf_device_set_cuda_sync(device, stream, want, &used)) != CLVF_OK)
        return st;
    av_log(ctx, AV_LOG_VERBOSE, "OpenCL device (on the CUDA frames' GPU): %s, ordered with CUDA by %s\n",
           clvf_device_name(device),
           used == CLVF_CUDA_SYNC_SEMAPHORES ? "semaphores"
           : used == CLVF_CUDA_SYNC_STREAM   ? "host waits for the stream"
                                             : "host waits for the context");
    return CLVF_OK;
}
#endif

static int open_device(AVFilterContext *ctx, AVFilterLink *inlink, const char *spec, clvf_device **out)
{
    AVBufferRef *device_ref = NULL;
    clvf_status st;

    if (CLVF_LINK_HW_FRAMES(inlink))
        device_ref = ((AVHWFramesContext *)CLVF_LINK_HW_FRAMES(inlink)->data)->device_ref;
    else if (ctx->hw_device_ctx && ((AVHWDeviceContext *)ctx->hw_device_ctx->data)->type == AV_HWDEVICE_TYPE_OPENCL)
        device_ref = ctx->hw_device_ctx;

    if (device_ref) { /* Direct3D frames: the spec's OpenCL device, in a context shared with theirs */
        AVHWDeviceContext *dev = (AVHWDeviceContext *)device_ref->data;
        clvf_d3d_kind kind = 0;
        void *d3d = NULL;
#if CONFIG_DXVA2
        if (dev->type == AV_HWDEVICE_TYPE_DXVA2)
            kind = CLVF_DXVA2, d3d = ((AVDXVA2DeviceContext *)dev->hwctx)->devmgr;
#endif
#if CONFIG_D3D11VA
        if (dev->type == AV_HWDEVICE_TYPE_D3D11VA)
            kind = CLVF_D3D11, d3d = ((AVD3D11VADeviceContext *)dev->hwctx)->device;
#endif
        if (kind) {
            if ((st = clvf_device_open_d3d(spec, kind, d3d, out)) != CLVF_OK)
                return ff_clvf_error(ctx, st, "sharing the frames' Direct3D device");
            av_log(ctx, AV_LOG_VERBOSE, "OpenCL device (shared with %s): %s\n", av_hwdevice_get_type_name(dev->type),
                   clvf_device_name(*out));
            return 0;
        }
    }
#if CONFIG_CUDA
    if (device_ref && ((AVHWDeviceContext *)device_ref->data)->type == AV_HWDEVICE_TYPE_CUDA) {
        AVCUDADeviceContext *cuda = ((AVHWDeviceContext *)device_ref->data)->hwctx;
        if ((st = clvf_device_open_cuda(spec, cuda->cuda_ctx, out)) != CLVF_OK)
            return ff_clvf_error(ctx, st, "using the CUDA frames' GPU (put hwdownload before the filter to filter "
                                          "them in system memory instead)");
        if ((st = set_cuda_sync(ctx, *out, cuda->stream)) != CLVF_OK) {
            clvf_device_release(*out);
            *out = NULL;
            return ff_clvf_error(ctx, st, "ordering with CUDA");
        }
        return 0;
    }
#endif
    if (device_ref) {
        AVOpenCLDeviceContext *hwctx = ((AVHWDeviceContext *)device_ref->data)->hwctx;
        st = clvf_device_wrap(hwctx->context, hwctx->device_id, hwctx->command_queue, out);
        if (st != CLVF_OK)
            return ff_clvf_error(ctx, st, "using FFmpeg's OpenCL device");
    } else {
        st = clvf_device_open(spec, out);
        if (st != CLVF_OK)
            return ff_clvf_error(ctx, st, "option 'device'");
    }
    av_log(ctx, AV_LOG_VERBOSE, "OpenCL device: %s\n", clvf_device_name(*out));
    return 0;
}

int ff_clvf_open_device(AVFilterContext *ctx, AVFilterLink *inlink, const char *spec, int profile, clvf_device **out)
{
    int err;
    /* Only this filter's device records kernel times: the request is process-wide. */
    if (profile)
        clvf_request_profiling(1);
    err = open_device(ctx, inlink, spec, out);
    if (profile)
        clvf_request_profiling(0);
    return err;
}

#if CONFIG_DXVA2
static void release_surface(void *opaque, uint8_t *data)
{
    IDirect3DSurface9_Release((IDirect3DSurface9 *)data);
}

/* Offscreen plain surfaces of the frames' size and format, for a pool of DXVA2 frames. */
static AVBufferRef *alloc_surface(void *opaque, size_t size)
{
    AVHWFramesContext *frames = opaque;
    AVDXVA2DeviceContext *hwctx = frames->device_ctx->hwctx;
    IDirect3DDevice9 *device = NULL;
    IDirect3DSurface9 *surface = NULL;
    HANDLE handle;
    D3DFORMAT format = frames->sw_format == AV_PIX_FMT_NV12     ? (D3DFORMAT)MKTAG('N', 'V', '1', '2')
                       : frames->sw_format == AV_PIX_FMT_YUV420P ? (D3DFORMAT)MKTAG('Y', 'V', '1', '2')
                       : frames->sw_format == AV_PIX_FMT_P010    ? (D3DFORMAT)MKTAG('P', '0', '1', '0')
                       : frames->sw_format == AV_PIX_FMT_RGBA    ? D3DFMT_A8B8G8R8
                                                                 : D3DFMT_A8R8G8B8;
    AVBufferRef *buf = NULL;

    if (FAILED(IDirect3DDeviceManager9_OpenDeviceHandle(hwctx->devmgr, &handle)))
        return NULL;
    if (SUCCEEDED(IDirect3DDeviceManager9_LockDevice(hwctx->devmgr, handle, &device, TRUE))) {
        if (FAILED(IDirect3DDevice9_CreateOffscreenPlainSurface(device, frames->width, frames->height, format,
                                                                D3DPOOL_DEFAULT, &surface, NULL)))
            surface = NULL;
        IDirect3DDeviceManager9_UnlockDevice(hwctx->devmgr, handle, FALSE);
        IDirect3DDevice9_Release(device);
    }
    IDirect3DDeviceManager9_CloseDeviceHandle(hwctx->devmgr, handle);
    if (surface && !(buf = av_buffer_create((uint8_t *)surface, sizeof(*surface), release_surface, NULL, 0)))
        IDirect3DSurface9_Release(surface);
    return buf;
}
#endif

#if CONFIG_CUDA
static void release_cuda_buffer(void *opaque, uint8_t *data)
{
    clvf_cuda_buffer_release(opaque);
}

/* Memory the device's kernels use in place, for a pool of CUDA frames. */
static AVBufferRef *alloc_cuda_buffer(void *opaque, size_t size)
{
    clvf_cuda_buffer *buffer = NULL;
    AVBufferRef *ref;

    if (clvf_cuda_buffer_alloc(opaque, size, &buffer) != CLVF_OK) {
        av_log(NULL, AV_LOG_ERROR, "CUDA frame pool: %s\n", clvf_last_error());
        return NULL;
    }
    if (!(ref = av_buffer_create(clvf_cuda_buffer_pointer(buffer), size, release_cuda_buffer, buffer, 0)))
        clvf_cuda_buffer_release(buffer);
    return ref;
}

static void release_pool_device(void *opaque)
{
    clvf_device_release(opaque);
}
#endif

int ff_clvf_output_frames(AVFilterContext *ctx, AVFilterLink *inlink, AVFilterLink *outlink,
                          enum AVPixelFormat sw_format, clvf_device *device)
{
    AVHWFramesContext *in_frames = (AVHWFramesContext *)CLVF_LINK_HW_FRAMES(inlink)->data;
    AVBufferRef *ref = av_hwframe_ctx_alloc(in_frames->device_ref);
    AVHWFramesContext *out;
    int err;

    if (!ref)
        return AVERROR(ENOMEM);
    out = (AVHWFramesContext *)ref->data;
    out->format = in_frames->format;
    out->sw_format = sw_format;
    out->width = outlink->w;
    out->height = outlink->h;
#if CONFIG_CUDA
    if (out->format == AV_PIX_FMT_CUDA) { /* the pool keeps a handle on the device: frames outlive the filter */
        clvf_device *pool_device = NULL;
        clvf_status st = clvf_device_share(device, &pool_device);
        if (st != CLVF_OK) {
            av_buffer_unref(&ref);
            return ff_clvf_error(ctx, st, "the output CUDA frame pool");
        }
        /* FFmpeg lays the planes out with the GPU's texture alignment (512 on NVIDIA GPUs, doubled
         * for yuv420p): sized for 1024, a buffer holds every plane whatever the GPU reports. */
        out->pool = av_buffer_pool_init2(av_image_get_buffer_size(sw_format, out->width, out->height, 1024),
                                         pool_device, alloc_cuda_buffer, release_pool_device);
        if (!out->pool) {
            clvf_device_release(pool_device);
            av_buffer_unref(&ref);
            return AVERROR(ENOMEM);
        }
    }
#endif
#if CONFIG_D3D11VA
    if (out->format == AV_PIX_FMT_D3D11) /* Intel's OpenCL shares only textures made shareable */
        ((AVD3D11VAFramesContext *)out->hwctx)->MiscFlags |= D3D11_RESOURCE_MISC_SHARED;
#endif
#if CONFIG_DXVA2
    if (out->format == AV_PIX_FMT_DXVA2_VLD) {
        ((AVDXVA2FramesContext *)out->hwctx)->surface_type = DXVA2_VideoProcessorRenderTarget;
        out->initial_pool_size = 8;
        if (av_hwframe_ctx_init(ref) >= 0)
            goto done;
        av_log(ctx, AV_LOG_VERBOSE, "the video service made no surfaces: using offscreen plain surfaces\n");
        av_buffer_unref(&ref);
        if (!(ref = av_hwframe_ctx_alloc(in_frames->device_ref)))
            return AVERROR(ENOMEM);
        out = (AVHWFramesContext *)ref->data;
        out->format = AV_PIX_FMT_DXVA2_VLD;
        out->sw_format = sw_format;
        out->width = outlink->w;
        out->height = outlink->h;
        ((AVDXVA2FramesContext *)out->hwctx)->surface_type = DXVA2_VideoProcessorRenderTarget;
        if (!(out->pool = av_buffer_pool_init2(sizeof(IDirect3DSurface9), out, alloc_surface, NULL))) {
            av_buffer_unref(&ref);
            return AVERROR(ENOMEM);
        }
    }
#endif
    if ((err = av_hwframe_ctx_init(ref)) < 0) {
        av_log(ctx, AV_LOG_ERROR, "cannot create the output %s frame pool\n", frames_name(ff_clvf_frames_kind(out->format)));
        av_buffer_unref(&ref);
        return err;
    }
#if CONFIG_DXVA2
done:
#endif
    av_buffer_unref(&CLVF_LINK_HW_FRAMES(outlink));
    CLVF_LINK_HW_FRAMES(outlink) = ref;
    return 0;
}

int ff_clvf_check_frame(AVFilterContext *ctx, AVFilterLink *inlink, const AVFrame *in, int hw)
{
    if (in->width != inlink->w || in->height != inlink->h) {
        av_log(ctx, AV_LOG_ERROR, "frame size changed mid-stream from %dx%d to %dx%d; not supported\n",
               inlink->w, inlink->h, in->width, in->height);
        return AVERROR(EINVAL);
    }
    if (!hw && (in->linesize[0] < 0 || in->linesize[1] < 0 || in->linesize[2] < 0)) {
        av_log(ctx, AV_LOG_ERROR, "frames with negative line sizes (flipped) are not supported\n");
        return AVERROR(EINVAL);
    }
    return 0;
}

void ff_clvf_describe_frame(const AVFrame *f, int hw, clvf_pixel_format format, clvf_frame *out)
{
    int nb_planes = format == CLVF_PIX_RGBA || format == CLVF_PIX_BGRA       ? 1
                    : format == CLVF_PIX_NV12 || format == CLVF_PIX_P010 ? 2
                                                                         : 3;
    memset(out, 0, sizeof(*out));
    out->storage = ff_clvf_storage(hw);
    if (hw == CLVF_FRAMES_DXVA2) {
        out->d3d_resource = f->data[3];
        return;
    }
    if (hw == CLVF_FRAMES_D3D11) { /* a texture and its array slice */
        out->d3d_resource = f->data[0];
        out->d3d_subresource = (unsigned)(intptr_t)f->data[1];
        return;
    }
    for (int i = 0; i < nb_planes; i++) {
        if (hw == CLVF_FRAMES_CUDA) {
            out->planes[i].data = f->data[i];
            out->planes[i].pitch = f->linesize[i];
        } else if (hw) {
            out->planes[i].mem = (cl_mem)f->data[i];
        } else {
            out->planes[i].data = f->data[i];
            out->planes[i].pitch = f->linesize[i];
        }
    }
}

int ff_clvf_is_rgb(clvf_pixel_format format)
{
    return format == CLVF_PIX_RGBA || format == CLVF_PIX_BGRA;
}

/* A frame's tags as clvf numbers, 0 where untagged or not one clvf knows: the planner reads
 * untagged streams. */
static clvf_matrix frame_matrix(const AVFrame *f)
{
    switch (f->colorspace) {
    case AVCOL_SPC_BT470BG:
    case AVCOL_SPC_SMPTE170M:
    case AVCOL_SPC_BT709:
    case AVCOL_SPC_SMPTE240M:
    case AVCOL_SPC_BT2020_NCL:
        return (clvf_matrix)f->colorspace; /* the same H.273 numbers */
    default:
        return 0;
    }
}

static clvf_range frame_range(const AVFrame *f)
{
    return f->color_range == AVCOL_RANGE_JPEG ? CLVF_RANGE_PC : f->color_range == AVCOL_RANGE_MPEG ? CLVF_RANGE_TV : 0;
}

static clvf_chroma_location frame_chroma_location(const AVFrame *f)
{
    switch (f->chroma_location) {
    case AVCHROMA_LOC_LEFT:    return CLVF_CHROMA_LEFT;
    case AVCHROMA_LOC_CENTER:  return CLVF_CHROMA_CENTER;
    case AVCHROMA_LOC_TOPLEFT: return CLVF_CHROMA_TOPLEFT;
    default:                   return 0;
    }
}

clvf_stream ff_clvf_stream(const AVFilterLink *link, enum AVPixelFormat sw_format, const AVFrame *f)
{
    clvf_stream s = { CLVF_API_VERSION, link->w, link->h, ff_clvf_format(sw_format) };
    s.sar_num = link->sample_aspect_ratio.num;
    s.sar_den = link->sample_aspect_ratio.den;
    if (f) {
        s.matrix = frame_matrix(f);
        s.range = frame_range(f);
        s.chroma_location = frame_chroma_location(f);
    }
    return s;
}

void ff_clvf_tag_frame(AVFrame *out, const clvf_stream *o)
{
    if (ff_clvf_is_rgb(o->format))
        out->colorspace = AVCOL_SPC_RGB;
    else if (o->matrix)
        out->colorspace = (enum AVColorSpace)o->matrix;
    if (o->range)
        out->color_range = o->range == CLVF_RANGE_PC ? AVCOL_RANGE_JPEG : AVCOL_RANGE_MPEG;
    if (o->format == CLVF_PIX_YUV444P || ff_clvf_is_rgb(o->format))
        out->chroma_location = AVCHROMA_LOC_UNSPECIFIED;
    else if (o->chroma_location)
        out->chroma_location = (enum AVChromaLocation)o->chroma_location;
}

static void release_host_buffer(void *opaque, uint8_t *data)
{
    clvf_host_buffer_release(opaque);
}

static AVBufferRef *alloc_host_buffer(void *opaque, size_t size)
{
    clvf_host_buffer *buffer = NULL;
    AVBufferRef *ref;

    if (clvf_host_buffer_alloc(opaque, size, &buffer) != CLVF_OK) {
        av_log(NULL, AV_LOG_ERROR, "host frame pool: %s\n", clvf_last_error());
        return NULL;
    }
    if (!(ref = av_buffer_create(clvf_host_buffer_pointer(buffer), size, release_host_buffer, buffer, 0)))
        clvf_host_buffer_release(buffer);
    return ref;
}

/* The pool of host buffers for outlink's frames: every plane's rows 64-byte aligned, planes one after
 * another, 64 bytes past the last (FFmpeg's SIMD code may read past a row). Where the device has
 * none, q->host_device is dropped and FFmpeg's frames are used. */
static int host_pool_init(AVFilterContext *ctx, CLVFQueue *q, AVFilterLink *outlink)
{
    ptrdiff_t pitches[4] = { 0 };
    size_t sizes[4] = { 0 }, total = 0;
    clvf_host_buffer *probe = NULL;
    clvf_status st;
    int err;

    if ((err = av_image_fill_linesizes(q->host_linesize, outlink->format, outlink->w)) < 0)
        return err;
    for (int i = 0; i < 4; i++)
        pitches[i] = q->host_linesize[i] = FFALIGN(q->host_linesize[i], 64);
    if ((err = av_image_fill_plane_sizes(sizes, outlink->format, outlink->h, pitches)) < 0)
        return err;
    for (int i = 0; i < 4 && sizes[i]; i++) {
        q->host_offset[i] = total;
        total += FFALIGN(sizes[i], 64);
    }
    total += 64;
    if ((st = clvf_host_buffer_alloc(q->host_device, total, &probe)) == CLVF_ERROR_UNSUPPORTED) {
        av_log(ctx, AV_LOG_VERBOSE, "outputs in FFmpeg's frames, mapped after the kernels: %s\n", clvf_last_error());
        clvf_device_release(q->host_device);
        q->host_device = NULL;
        return 0;
    }
    if (st != CLVF_OK)
        return ff_clvf_error(ctx, st, "the output frame pool");
    clvf_host_buffer_release(probe);
    /* The pool allocates only while the queue holds it (its device handle outlives it): no free callback. */
    if (!(q->host_pool = av_buffer_pool_init2(total, q->host_device, alloc_host_buffer, NULL)))
        return AVERROR(ENOMEM);
    av_log(ctx, AV_LOG_VERBOSE, "outputs in host buffers, written in place (no map after the kernels)\n");
    return 0;
}

/* A new output frame with in's properties at outlink's size: from the output frame pool (OpenCL,
 * DXVA2, D3D11, CUDA), the host buffers, or FFmpeg's system memory. */
static int output_frame(AVFilterContext *ctx, CLVFQueue *q, const AVFrame *in, AVFrame **out)
{
    AVFilterLink *outlink = ctx->outputs[0];
    int err;

    if (q->hw) {
        if (!(*out = av_frame_alloc()))
            return AVERROR(ENOMEM);
        if ((err = av_hwframe_get_buffer(CLVF_LINK_HW_FRAMES(outlink), *out, 0)) < 0)
            return err;
    } else {
        if (q->host_device && !q->host_pool && (err = host_pool_init(ctx, q, outlink)) < 0)
            return err;
        if (!q->host_pool) {
            if (!(*out = ff_get_video_buffer(outlink, outlink->w, outlink->h)))
                return AVERROR(ENOMEM);
        } else {
            if (!(*out = av_frame_alloc()))
                return AVERROR(ENOMEM);
            if (!((*out)->buf[0] = av_buffer_pool_get(q->host_pool)))
                return AVERROR(ENOMEM);
            (*out)->format = outlink->format;
            for (int i = 0; i < 4 && q->host_linesize[i]; i++) {
                (*out)->data[i] = (*out)->buf[0]->data + q->host_offset[i];
                (*out)->linesize[i] = q->host_linesize[i];
            }
            (*out)->extended_data = (*out)->data;
        }
    }
    if ((err = av_frame_copy_props(*out, in)) < 0)
        return err;
    (*out)->width = outlink->w;
    (*out)->height = outlink->h;
    (*out)->sample_aspect_ratio = outlink->sample_aspect_ratio;
    return 0;
}

void ff_clvf_queue_frames(CLVFQueue *q, int hw, clvf_device *device)
{
    q->hw = hw;
    q->src_copied = hw == CLVF_FRAMES_HOST && clvf_device_copies_host_frames(device);
    if (hw == CLVF_FRAMES_HOST && !q->host_device && !q->host_pool && clvf_device_share(device, &q->host_device) != CLVF_OK)
        q->host_device = NULL; /* FFmpeg's frames, then */
}

static int complete_oldest(AVFilterContext *ctx, CLVFQueue *q)
{
    AVFrame *in = q->in[0], *out = q->out[0];
    clvf_status st = q->complete(q->op);

    memmove(q->in, q->in + 1, (q->count - 1) * sizeof(*q->in));
    memmove(q->out, q->out + 1, (q->count - 1) * sizeof(*q->out));
    q->count--;
    av_frame_free(&in);
    if (st != CLVF_OK) {
        av_frame_free(&out);
        return ff_clvf_error(ctx, st, "completing a frame");
    }
    return ff_filter_frame(ctx->outputs[0], out);
}

static int push_waiting(CLVFQueue *q, const AVFrame *in)
{
    AVFrame *props;
    int err;

    if (q->nb_waiting == q->waiting_size) {
        AVFrame **grown = av_realloc_array(q->waiting, q->waiting_size + 4, sizeof(*grown));
        if (!grown)
            return AVERROR(ENOMEM);
        q->waiting = grown;
        q->waiting_size += 4;
    }
    if (!(props = av_frame_alloc()))
        return AVERROR(ENOMEM);
    if ((err = av_frame_copy_props(props, in)) < 0) {
        av_frame_free(&props);
        return err;
    }
    q->waiting[q->nb_waiting++] = props;
    return 0;
}

/* Sends `in` (NULL: the end) and starts the outputs that become ready: with an input at most one,
 * at the end all there are. Takes `in`. */
static int queue_send(AVFilterContext *ctx, CLVFQueue *q, AVFrame *in)
{
    AVFrame *out = NULL;
    clvf_frame src, dst;
    clvf_status st;
    int err = 0, got = 0;

    if (in) {
        if ((err = push_waiting(q, in)) < 0)
            goto done;
        ff_clvf_describe_frame(in, q->hw, q->in_format, &src);
    }
    while (q->nb_waiting) {
        if (q->count == CLVF_MAX_IN_FLIGHT && (err = complete_oldest(ctx, q)) < 0)
            break;
        if ((err = output_frame(ctx, q, q->waiting[0], &out)) < 0)
            break;
        ff_clvf_tag_frame(out, &q->tags);
        ff_clvf_describe_frame(out, q->hw, q->out_format, &dst);
        if ((st = q->submit(q->op, in ? &src : NULL, &dst, &got)) != CLVF_OK) {
            err = ff_clvf_error(ctx, st, in ? "processing a frame" : "ending the stream");
            break;
        }
        if (!got)
            break; /* held back (src has been read), or nothing more at the end */
        av_frame_free(&q->waiting[0]);
        memmove(q->waiting, q->waiting + 1, --q->nb_waiting * sizeof(*q->waiting));
        q->out[q->count] = out;
        q->in[q->count] = q->src_copied ? NULL : in;
        q->count++;
        out = NULL;
        if (in) {
            if (q->src_copied)
                av_frame_free(&in); /* read by submit */
            in = NULL;
            break;
        }
    }
done:
    av_frame_free(&out);
    av_frame_free(&in);
    return err;
}

int ff_clvf_drain(AVFilterContext *ctx, CLVFQueue *q)
{
    int err = 0;
    while (q->count && err >= 0)
        err = complete_oldest(ctx, q);
    return err;
}

void ff_clvf_queue_free(CLVFQueue *q)
{
    /* All completed first: the device may still be reading or writing these frames. */
    for (int i = 0; q->op && i < q->count; i++)
        q->complete(q->op);
    while (q->count) {
        q->count--;
        av_frame_free(&q->in[q->count]);
        av_frame_free(&q->out[q->count]);
    }
    while (q->nb_waiting)
        av_frame_free(&q->waiting[--q->nb_waiting]);
    av_freep(&q->waiting);
    q->waiting_size = 0;
    q->eof = 0;
    av_buffer_pool_uninit(&q->host_pool);
    clvf_device_release(q->host_device);
    q->host_device = NULL;
}

int ff_clvf_activate(AVFilterContext *ctx, CLVFQueue *q, ff_clvf_prepare_fn prepare)
{
    AVFilterLink *inlink = ctx->inputs[0], *outlink = ctx->outputs[0];
    AVFrame *in = NULL;
    int64_t pts;
    int ret, status;
    const int keep = q->depth > 1 ? q->depth - 1 : 0; /* outputs left in flight between FFmpeg's calls */

    ff_clvf_route_log(ctx);
    FF_FILTER_FORWARD_STATUS_BACK(outlink, inlink);
    if ((ret = ff_inlink_consume_frame(inlink, &in)) < 0)
        return ret;
    if (ret > 0) {
        if ((ret = prepare(ctx, in)) < 0) {
            av_frame_free(&in);
            return ret;
        }
        if ((ret = queue_send(ctx, q, in)) < 0)
            return ret;
        /* Run again: more input may be queued, or wanted (a delayed output has not started). */
        ff_filter_set_ready(ctx, 100);
        return 0;
    }
    if (ff_inlink_acknowledge_status(inlink, &status, &pts)) {
        if (status == AVERROR_EOF && q->op && !q->eof) {
            q->eof = 1;
            if ((ret = queue_send(ctx, q, NULL)) < 0)
                return ret;
        }
        if ((ret = ff_clvf_drain(ctx, q)) < 0)
            return ret;
        ff_outlink_set_status(outlink, status, pts);
        return 0;
    }
    /* No input waiting: FFmpeg gets control back with at most async_depth - 1 outputs in flight
     * (by default none), which the device goes on with while FFmpeg fetches the next input. FFmpeg
     * reconfigures a graph (a frame of another size) by freeing it, with no end of stream: the
     * frames left in flight here are lost then. */
    if (q->count > keep) {
        while (q->count > keep)
            if ((ret = complete_oldest(ctx, q)) < 0)
                return ret;
        ff_filter_set_ready(ctx, 100);
        return 0;
    }
    FF_FILTER_FORWARD_WANTED(outlink, inlink);
    return FFERROR_NOT_READY;
}
