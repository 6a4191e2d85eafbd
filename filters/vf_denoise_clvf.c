/*
 * denoise_clvf: NL-means denoising with OpenCL through clvf. The weights are those of FFmpeg's
 * nlmeans (same s, p, r give the same picture), computed on the device; with t > 0 the frames
 * around each frame are searched too. Thin glue: options,
 * format negotiation, frames in and out; the operation lives in the clvf library.
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
#include "video.h"

typedef struct DenoiseCLVFContext {
    const AVClass *class;
    char *preset;
    double s, sc;
    int p, pc, r, rc;
    int planes;
    int t;
    int wmode;
    char *device_spec;
    int profile;

    clvf_device *device;
    clvf_denoise *denoise;
    clvf_denoise_params params;
    int hw; /* where frames are: CLVF_FRAMES_* */
    CLVFQueue queue;
} DenoiseCLVFContext;

/* Unset options hold these sentinels (their AVOption defaults) until a preset or the documented
 * default fills them. */
#define UNSET_SIZE 0
#define UNSET_CHROMA (-1)
#define UNSET_PLANES (-1)
#define UNSET_T (-1)
#define UNSET_WMODE (-1)

static av_cold int denoise_clvf_init(AVFilterContext *ctx)
{
    DenoiseCLVFContext *s = ctx->priv;
    clvf_denoise_params *p = &s->params;
    clvf_status st;
    int err;

    ff_clvf_route_log(ctx);
    if (s->preset && (err = ff_clvf_apply_preset(ctx, "denoise_clvf", s->preset)) < 0)
        return err;
    clvf_denoise_params_default(p);
    if (!isnan(s->s))
        p->strength = s->s;
    if (!isnan(s->sc))
        p->strength_chroma = s->sc;
    if (s->p != UNSET_SIZE)
        p->patch_size = s->p;
    if (s->r != UNSET_SIZE)
        p->research_size = s->r;
    if (s->pc != UNSET_CHROMA)
        p->patch_size_chroma = s->pc;
    if (s->rc != UNSET_CHROMA)
        p->research_size_chroma = s->rc;
    if (s->planes != UNSET_PLANES)
        p->planes = s->planes;
    if (s->t != UNSET_T)
        p->temporal_radius = s->t;
    if (s->wmode != UNSET_WMODE)
        p->weighting = s->wmode;
    /* Checked now, so that a bad value fails before any frame: sizes come with the input. */
    p->width = p->height = 16;
    if ((st = clvf_denoise_validate(p)) != CLVF_OK)
        return ff_clvf_error(ctx, st, "denoise_clvf");
    return 0;
}

static void release_state(DenoiseCLVFContext *s)
{
    const char *profile = s->denoise ? clvf_denoise_profile(s->denoise) : "";

    ff_clvf_queue_free(&s->queue);
    s->queue.op = NULL;
    if (*profile)
        av_log(s, AV_LOG_INFO, "kernel times (CLVF_PROFILE):\n%s", profile);
    clvf_denoise_release(s->denoise);
    s->denoise = NULL;
    clvf_device_release(s->device);
    s->device = NULL;
}

static av_cold void denoise_clvf_uninit(AVFilterContext *ctx)
{
    ff_clvf_route_log(ctx);
    release_state(ctx->priv);
    ff_clvf_route_log(NULL);
}

static int denoise_clvf_query_formats(AVFilterContext *ctx)
{
    static const enum AVPixelFormat formats[] = {
        AV_PIX_FMT_NV12, AV_PIX_FMT_YUV420P, AV_PIX_FMT_OPENCL, AV_PIX_FMT_NONE
    };
    return ff_clvf_query_formats(ctx, formats, AV_PIX_FMT_NONE); /* the same format on both links */
}

/* The queue calls the operation through void pointers: these give it the real types. */
static clvf_status denoise_submit(void *op, const clvf_frame *src, const clvf_frame *dst, int *got)
{
    return clvf_denoise_submit(op, src, dst, got);
}

static clvf_status denoise_complete(void *op)
{
    return clvf_denoise_complete(op);
}

static int denoise_clvf_config_output(AVFilterLink *outlink)
{
    AVFilterContext *ctx = outlink->src;
    AVFilterLink *inlink = ctx->inputs[0];
    DenoiseCLVFContext *s = ctx->priv;
    enum AVPixelFormat sw_format;
    clvf_status st;
    int err;
    ff_clvf_route_log(ctx);

    release_state(s);
    if ((err = ff_clvf_input_format(ctx, inlink, ff_clvf_formats_420, &s->hw, &sw_format)) < 0)
        return err;
    outlink->w = inlink->w;
    outlink->h = inlink->h;
    outlink->sample_aspect_ratio = inlink->sample_aspect_ratio;
    if ((err = ff_clvf_open_device(ctx, inlink, s->device_spec, s->profile, &s->device)) < 0)
        return err;
    if (s->hw && (err = ff_clvf_output_frames(ctx, inlink, outlink, sw_format, s->device)) < 0)
        return err;

    s->params.format = ff_clvf_format(sw_format);
    s->params.width = inlink->w;
    s->params.height = inlink->h;
    s->params.src_storage = s->params.dst_storage = ff_clvf_storage(s->hw);
    av_log(ctx, AV_LOG_VERBOSE, "%dx%d %s, s=%g sc=%g p=%d pc=%d r=%d rc=%d planes=%#x t=%d wmode=%d\n", inlink->w,
           inlink->h, av_get_pix_fmt_name(sw_format), s->params.strength, s->params.strength_chroma,
           s->params.patch_size, s->params.patch_size_chroma, s->params.research_size, s->params.research_size_chroma,
           s->params.planes, s->params.temporal_radius, s->params.weighting);
    if ((st = clvf_denoise_create(s->device, &s->params, &s->denoise)) != CLVF_OK)
        return ff_clvf_error(ctx, st, "denoise_clvf");
    s->queue.op = s->denoise;
    s->queue.submit = denoise_submit;
    s->queue.complete = denoise_complete;
    ff_clvf_queue_frames(&s->queue, s->hw, s->device);
    s->queue.in_format = s->queue.out_format = s->params.format;
    s->queue.tags = (clvf_stream){ 0 }; /* the output keeps its input's tags */
    return 0;
}

static int denoise_clvf_prepare(AVFilterContext *ctx, const AVFrame *in)
{
    DenoiseCLVFContext *s = ctx->priv;
    return ff_clvf_check_frame(ctx, ctx->inputs[0], in, s->hw);
}

static int denoise_clvf_activate(AVFilterContext *ctx)
{
    DenoiseCLVFContext *s = ctx->priv;
    return ff_clvf_activate(ctx, &s->queue, denoise_clvf_prepare);
}

#define OFFSET(x) offsetof(DenoiseCLVFContext, x)
#define FLAGS (AV_OPT_FLAG_FILTERING_PARAM | AV_OPT_FLAG_VIDEO_PARAM)
#define MAX_S AV_STRINGIFY(CLVF_MAX_STRENGTH)
#define MAX_WINDOW AV_STRINGIFY(CLVF_MAX_WINDOW)
static const AVOption denoise_clvf_options[] = {
    { "preset", "named option set: light, medium, strong (see presets/denoise_clvf.preset), or a preset file "
      "path (PATH or PATH#NAME); options given explicitly override the preset's",
      OFFSET(preset), AV_OPT_TYPE_STRING, { .str = NULL }, 0, 0, FLAGS },
    { "s", "denoising strength as nlmeans' s: weights exp(-ssd / (10 s)^2), 1 to " MAX_S " (default 1)",
      OFFSET(s), AV_OPT_TYPE_DOUBLE, { .dbl = NAN }, 1, CLVF_MAX_STRENGTH, FLAGS },
    { "sc", "strength for the chroma planes, 1 to " MAX_S "; 0: as s (default 0)",
      OFFSET(sc), AV_OPT_TYPE_DOUBLE, { .dbl = NAN }, 0, CLVF_MAX_STRENGTH, FLAGS },
    { "p", "patch size, odd, 1 to " MAX_WINDOW " (default 7)",
      OFFSET(p), AV_OPT_TYPE_INT, { .i64 = UNSET_SIZE }, 0, CLVF_MAX_WINDOW, FLAGS, "p" },
    CLVF_UNSET_CONST(UNSET_SIZE, "p"),
    { "pc", "patch size for the chroma planes, odd, 1 to " MAX_WINDOW "; 0: as p (default 0)",
      OFFSET(pc), AV_OPT_TYPE_INT, { .i64 = UNSET_CHROMA }, UNSET_CHROMA, CLVF_MAX_WINDOW, FLAGS, "pc" },
    CLVF_UNSET_CONST(UNSET_CHROMA, "pc"),
    { "r", "research window size, odd, 1 to " MAX_WINDOW " (default 15)",
      OFFSET(r), AV_OPT_TYPE_INT, { .i64 = UNSET_SIZE }, 0, CLVF_MAX_WINDOW, FLAGS, "r" },
    CLVF_UNSET_CONST(UNSET_SIZE, "r"),
    { "rc", "research window size for the chroma planes, odd, 1 to " MAX_WINDOW "; 0: as r (default 0)",
      OFFSET(rc), AV_OPT_TYPE_INT, { .i64 = UNSET_CHROMA }, UNSET_CHROMA, CLVF_MAX_WINDOW, FLAGS, "rc" },
    CLVF_UNSET_CONST(UNSET_CHROMA, "rc"),
    { "planes", "planes to denoise, a bit mask: 1 Y, 2 U, 4 V (NV12: 2 or 4 for UV); others are copied "
      "(default 15: all)", OFFSET(planes), AV_OPT_TYPE_INT, { .i64 = UNSET_PLANES }, UNSET_PLANES, 15, FLAGS, "planes" },
    CLVF_UNSET_CONST(UNSET_PLANES, "planes"),
    { "t", "temporal radius: 0 spatial; 1 to " AV_STRINGIFY(CLVF_MAX_TEMPORAL_RADIUS) ": also search the t frames "
      "before and after (output is delayed by t frames) (default 0)",
      OFFSET(t), AV_OPT_TYPE_INT, { .i64 = UNSET_T }, UNSET_T, CLVF_MAX_TEMPORAL_RADIUS, FLAGS, "t" },
    CLVF_UNSET_CONST(UNSET_T, "t"),
    { "wmode", "weighting of a patch distance u = ssd / (10 s)^2: welsch exp(-u), as nlmeans; bisquare-a "
      "max(0, 1-u); bisquare-b its square; bisquare-c its 8th power (KNLMeansCL's wmode 0-3) (default welsch)",
      OFFSET(wmode), AV_OPT_TYPE_INT, { .i64 = UNSET_WMODE }, UNSET_WMODE, CLVF_WEIGHT_BISQUARE_C, FLAGS, "wmode" },
    CLVF_UNSET_CONST(UNSET_WMODE, "wmode"),
    { "welsch", NULL, 0, AV_OPT_TYPE_CONST, { .i64 = CLVF_WEIGHT_WELSCH }, 0, 0, FLAGS, "wmode" },
    { "bisquare-a", NULL, 0, AV_OPT_TYPE_CONST, { .i64 = CLVF_WEIGHT_BISQUARE_A }, 0, 0, FLAGS, "wmode" },
    { "bisquare-b", NULL, 0, AV_OPT_TYPE_CONST, { .i64 = CLVF_WEIGHT_BISQUARE_B }, 0, 0, FLAGS, "wmode" },
    { "bisquare-c", NULL, 0, AV_OPT_TYPE_CONST, { .i64 = CLVF_WEIGHT_BISQUARE_C }, 0, 0, FLAGS, "wmode" },
    CLVF_DEVICE_OPTION(OFFSET(device_spec), FLAGS),
    CLVF_PROFILE_OPTION(OFFSET(profile), FLAGS),
    CLVF_ASYNC_DEPTH_OPTION(OFFSET(queue.depth), FLAGS),
    { NULL }
};

AVFILTER_DEFINE_CLASS(denoise_clvf);

CLVF_VIDEO_PADS(denoise_clvf, NULL, denoise_clvf_config_output);

const AVFilter ff_vf_denoise_clvf = {
    .name           = "denoise_clvf",
    .description    = NULL_IF_CONFIG_SMALL("Denoise video with OpenCL NL-means (clvf), nlmeans' weights."),
    .priv_size      = sizeof(DenoiseCLVFContext),
    .priv_class     = &denoise_clvf_class,
    .init           = denoise_clvf_init,
    .uninit         = denoise_clvf_uninit,
    .activate       = denoise_clvf_activate,
    FILTER_INPUTS(denoise_clvf_inputs),
    FILTER_OUTPUTS(denoise_clvf_outputs),
    FILTER_QUERY_FUNC(denoise_clvf_query_formats),
    .flags          = CLVF_FLAG_HWDEVICE,
    .flags_internal = FF_FILTER_FLAG_HWFRAME_AWARE,
};
