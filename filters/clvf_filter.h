/*
 * What the clvf filters share: logging and errors, presets, the OpenCL device, OpenCL frame
 * pools, and turning AVFrames into clvf frames. Each filter keeps only its options and the call
 * of its operation.
 */
#ifndef AVFILTER_CLVF_FILTER_H
#define AVFILTER_CLVF_FILTER_H

#include "libavutil/frame.h"
#include "avfilter.h"

#include <clvf/clvf.h>

/* The `device` option every clvf filter has (a string field). */
#define CLVF_DEVICE_OPTION(offset, flags)                                                              \
    { "device", "OpenCL device for system-memory frames: default, cpu, gpu, P.D or a name part "      \
      "(default: -filter_hw_device, else CLVF_DEVICE, else the first GPU, else the first device)",   \
      offset, AV_OPT_TYPE_STRING, { .str = NULL }, 0, 0, flags }

/* The input and output pads of a one-in, one-out video filter: PREFIX_inputs (frames to
 * filter_frame, or NULL when the filter uses activate) and PREFIX_outputs (config_props). */
#define CLVF_VIDEO_PADS(prefix, filter_frame_fn, config_props_fn)                                       \
    static const AVFilterPad prefix##_inputs[] = {                                                     \
        { .name = "default", .type = AVMEDIA_TYPE_VIDEO, .filter_frame = filter_frame_fn },          \
    };                                                                                               \
    static const AVFilterPad prefix##_outputs[] = {                                                    \
        { .name = "default", .type = AVMEDIA_TYPE_VIDEO, .config_props = config_props_fn },          \
    }

/* AVOption constants of the matrix, range and dither options (UNIT names the option's unit;
 * FLAGS must be defined). */
/* An int option whose default is what the input's frames say (their tags): -h shows "input". */
#define CLVF_OPT_INPUT (-1)
#define CLVF_INPUT_CONST(unit) \
    { "input", "as the input's frames say", 0, AV_OPT_TYPE_CONST, { .i64 = CLVF_OPT_INPUT }, 0, 0, FLAGS, unit }
#define CLVF_MATRIX_CONSTS(unit)                                                                           \
    CLVF_INPUT_CONST(unit),                                                                                 \
    { "bt709", "BT.709", 0, AV_OPT_TYPE_CONST, { .i64 = CLVF_MATRIX_BT709 }, 0, 0, FLAGS, unit },          \
    { "bt601", "BT.601", 0, AV_OPT_TYPE_CONST, { .i64 = CLVF_MATRIX_SMPTE170M }, 0, 0, FLAGS, unit },      \
    { "bt470bg", "BT.601", 0, AV_OPT_TYPE_CONST, { .i64 = CLVF_MATRIX_BT470BG }, 0, 0, FLAGS, unit },      \
    { "smpte170m", "BT.601", 0, AV_OPT_TYPE_CONST, { .i64 = CLVF_MATRIX_SMPTE170M }, 0, 0, FLAGS, unit },  \
    { "smpte240m", "SMPTE 240M", 0, AV_OPT_TYPE_CONST, { .i64 = CLVF_MATRIX_SMPTE240M }, 0, 0, FLAGS, unit }, \
    { "bt2020nc", "BT.2020 NCL", 0, AV_OPT_TYPE_CONST, { .i64 = CLVF_MATRIX_BT2020_NCL }, 0, 0, FLAGS, unit }, \
    { "bt2020ncl", "BT.2020 NCL", 0, AV_OPT_TYPE_CONST, { .i64 = CLVF_MATRIX_BT2020_NCL }, 0, 0, FLAGS, unit }
#define CLVF_RANGE_CONSTS(unit)                                                                            \
    CLVF_INPUT_CONST(unit),                                                                                 \
    { "tv", "limited range", 0, AV_OPT_TYPE_CONST, { .i64 = CLVF_RANGE_TV }, 0, 0, FLAGS, unit },         \
    { "limited", "limited range", 0, AV_OPT_TYPE_CONST, { .i64 = CLVF_RANGE_TV }, 0, 0, FLAGS, unit },    \
    { "mpeg", "limited range", 0, AV_OPT_TYPE_CONST, { .i64 = CLVF_RANGE_TV }, 0, 0, FLAGS, unit },       \
    { "pc", "full range", 0, AV_OPT_TYPE_CONST, { .i64 = CLVF_RANGE_PC }, 0, 0, FLAGS, unit },            \
    { "full", "full range", 0, AV_OPT_TYPE_CONST, { .i64 = CLVF_RANGE_PC }, 0, 0, FLAGS, unit },          \
    { "jpeg", "full range", 0, AV_OPT_TYPE_CONST, { .i64 = CLVF_RANGE_PC }, 0, 0, FLAGS, unit }
/* An int option a preset may set: its default is a sentinel, shown by -h as "unset" (the preset's
 * value, else the default its help names). FFmpeg records no "given" flag for an option, and one
 * given at its default value must still beat the preset, so the real default cannot be the
 * AVOption's. */
#define CLVF_UNSET_CONST(value, unit) \
    { "unset", "the preset's value, else the default named above", 0, AV_OPT_TYPE_CONST, { .i64 = value }, 0, 0, FLAGS, unit }
#define CLVF_DITHER_CONSTS(unit)                                                                           \
    { "auto", NULL, 0, AV_OPT_TYPE_CONST, { .i64 = CLVF_DITHER_AUTO }, 0, 0, FLAGS, unit },                \
    { "none", NULL, 0, AV_OPT_TYPE_CONST, { .i64 = CLVF_DITHER_NONE }, 0, 0, FLAGS, unit },                \
    { "ordered", NULL, 0, AV_OPT_TYPE_CONST, { .i64 = CLVF_DITHER_ORDERED }, 0, 0, FLAGS, unit }

/* The stream of `link` with planes of sw_format, tagged as frame `f` is (NULL: untagged): what
 * the library plans from (clvf_scale_plan, clvf_colorspace_plan, clvf_chain_create). */
clvf_stream ff_clvf_stream(const AVFilterLink *link, enum AVPixelFormat sw_format, const AVFrame *f);
/* Sets on an output frame (which carries its source's properties) the tags a plan's output
 * stream has; what the stream leaves untagged stays as it is. */
void ff_clvf_tag_frame(AVFrame *out, const clvf_stream *output);
int ff_clvf_is_rgb(clvf_pixel_format format);

/* The frame queue every clvf filter runs through ff_clvf_activate. The operation takes frames
 * through `submit` (src NULL: the end of the stream) and starts an output into dst when one is
 * ready (*got); `complete` finishes the oldest started (at most CLVF_MAX_IN_FLIGHT in flight). An
 * input whose output has not started (a temporal denoise delays outputs) waits as its properties,
 * which its output carries; an input is kept whole beside the output started at its submit, until
 * that output leaves (its planes may be read until then). The filter sets op, submit, complete,
 * hw, the formats and the tags; the queue owns the frames. */
typedef clvf_status (*ff_clvf_submit_fn)(void *op, const clvf_frame *src, const clvf_frame *dst, int *got);
typedef struct CLVFQueue {
    void *op;
    ff_clvf_submit_fn submit;
    clvf_status (*complete)(void *op);
    int hw;                                  /* where frames are: CLVF_FRAMES_* */
    clvf_pixel_format in_format, out_format; /* the planes of input and output frames */
    clvf_stream tags;                        /* put on every output (ff_clvf_tag_frame) */

    AVFrame **waiting; /* properties of the inputs whose output has not started, oldest first */
    int nb_waiting, waiting_size;
    int src_copied;                          /* inputs are read when submitted (ff_clvf_queue_frames) */
    AVFrame *in[CLVF_MAX_IN_FLIGHT], *out[CLVF_MAX_IN_FLIGHT]; /* started, oldest first (in: NULL once read) */
    int count;
    int eof;   /* the end was sent */
    int depth; /* the async_depth option: at most depth - 1 outputs in flight when FFmpeg gets control */

    /* System-memory outputs in memory the device uses in place (clvf_host_buffer_alloc), all planes
     * in one buffer of the pool, where the device offers it; else FFmpeg's own frames. */
    clvf_device *host_device; /* the pool's device; NULL once known unsupported */
    AVBufferPool *host_pool;  /* made at the first output */
    int host_linesize[4];
    size_t host_offset[4];
} CLVFQueue;

/* Where the queue's frames are (CLVF_FRAMES_*), on `device`. System-memory frames that the device
 * copies when they are submitted (clvf_device_copies_host_frames) are freed then, not when their
 * output completes: FFmpeg reuses their memory (its pools, or the allocator's) sooner. System-memory
 * outputs come from host buffers where the device has them (no map after each frame's kernels). */
void ff_clvf_queue_frames(CLVFQueue *q, int hw, clvf_device *device);
/* Checks an input frame and makes the operation ready for it (planning it again when its tags
 * differ, after ff_clvf_drain). Does not take the frame. */
typedef int (*ff_clvf_prepare_fn)(AVFilterContext *ctx, const AVFrame *in);
/* The activate of every clvf filter: each input through prepare and the queue; at the end of the
 * stream, the outputs still to come and those in flight. */
int ff_clvf_activate(AVFilterContext *ctx, CLVFQueue *q, ff_clvf_prepare_fn prepare);
/* Completes every output in flight, sending them on (before the operation is made again). */
int ff_clvf_drain(AVFilterContext *ctx, CLVFQueue *q);
/* Completes what is in flight (errors ignored) and frees every frame held, before the operation
 * is released (after an error, or at uninit once drained); the pool of host buffers too (frames
 * from it still held downstream keep their memory). */
void ff_clvf_queue_free(CLVFQueue *q);

/* The `profile` option every clvf filter has (an int field): kernel times from OpenCL events,
 * logged when the filter closes. */
#define CLVF_PROFILE_OPTION(offset, flags)                                                              \
    { "profile", "record kernel times and log them when the filter closes (devices clvf opens; an "   \
      "FFmpeg device's queue must have profiling enabled)",                                            \
      offset, AV_OPT_TYPE_BOOL, { .i64 = 0 }, 0, 1, flags }

/* The `async_depth` option every clvf filter has (the CLVFQueue's depth field). */
#define CLVF_ASYNC_DEPTH_OPTION(offset, flags)                                                         \
    { "async_depth", "frames on the device at once: 1 finishes each frame before FFmpeg gets control " \
      "back; 2 or 3 keep up to async_depth - 1 in flight between FFmpeg's calls (faster; a frame size " \
      "change mid-stream then loses those frames)",                                                    \
      offset, AV_OPT_TYPE_INT, { .i64 = 1 }, 1, CLVF_MAX_IN_FLIGHT, flags }

/* Routes the library's messages to av_log as CTX's (NULL: no filter's) on this thread: every
 * clvf filter callback that reaches the library calls it first; uninit ends with NULL. */
void ff_clvf_route_log(AVFilterContext *ctx);
/* Logs "WHAT: <the library's message>" (WHAT NULL: the message alone; the planner's name the
 * filter) and returns the matching AVERROR. */
int ff_clvf_error(AVFilterContext *ctx, clvf_status status, const char *what);

/* Sets the options of preset NAME for FILTER that the user left unset (an option is unset while
 * it holds its AVOption default, which the filters make a sentinel: NULL, NaN, or out of range). */
int ff_clvf_apply_preset(AVFilterContext *ctx, const char *filter, const char *name);

/* The pixel formats of scale_clvf and denoise_clvf, and of colorspace_clvf (AV_PIX_FMT_NONE ends
 * each list; AV_PIX_FMT_OPENCL is not in them). */
extern const enum AVPixelFormat ff_clvf_formats_420[];
extern const enum AVPixelFormat ff_clvf_formats_all[];

/* Format negotiation: the input takes in_formats (AV_PIX_FMT_OPENCL included); the output gives
 * out_format (or OpenCL frames of it), or with AV_PIX_FMT_NONE whatever the input is. */
int ff_clvf_query_formats(AVFilterContext *ctx, const enum AVPixelFormat *in_formats, enum AVPixelFormat out_format);

/* Where a link's frames are: the `hw` of the filters (0 for system memory). */
enum { CLVF_FRAMES_HOST = 0, CLVF_FRAMES_OPENCL = 1, CLVF_FRAMES_DXVA2 = 2, CLVF_FRAMES_D3D11 = 3, CLVF_FRAMES_CUDA = 4 };
/* The kind of a link format, and the storage the operations get such frames in. */
int ff_clvf_frames_kind(enum AVPixelFormat format);
clvf_storage ff_clvf_storage(int hw);
/* The output link must carry the input's kind of frames (an error naming the mismatch). */
int ff_clvf_check_output_kind(AVFilterContext *ctx, int hw, AVFilterLink *outlink);

/* Checks the input's format: *hw is set to the kind of frames (CLVF_FRAMES_*), *sw_format to the
 * planes' format (one of `allowed`; anything else is an error naming what is allowed). A
 * system-memory input that FFmpeg converted to one of `allowed` with a loss of bit depth or chroma
 * resolution is refused, with the format= that accepts the loss. */
int ff_clvf_input_format(AVFilterContext *ctx, AVFilterLink *inlink, const enum AVPixelFormat *allowed, int *hw,
                         enum AVPixelFormat *sw_format);
/* The device: the OpenCL frames' own, for DXVA2 and D3D11 frames the spec's device in a context
 * shared with theirs, for CUDA frames the OpenCL device on their GPU, else -filter_hw_device's
 * (OpenCL), else clvf_device_open(spec). With `profile`, a device clvf opens records kernel times. */
int ff_clvf_open_device(AVFilterContext *ctx, AVFilterLink *inlink, const char *spec, int profile, clvf_device **out);
/* For OpenCL, DXVA2, D3D11 or CUDA input: an output frame pool of the same kind, of sw_format at
 * outlink's size on the input's device (DXVA2: FFmpeg's own surfaces, else offscreen plain
 * surfaces made here, for where the video service cannot make surfaces; CUDA: memory `device`
 * uses in place, clvf_cuda_buffer_alloc). */
int ff_clvf_output_frames(AVFilterContext *ctx, AVFilterLink *inlink, AVFilterLink *outlink,
                          enum AVPixelFormat sw_format, clvf_device *device);

/* Rejects frames whose size differs from the link's or (system memory) that are flipped. */
int ff_clvf_check_frame(AVFilterContext *ctx, AVFilterLink *inlink, const AVFrame *in, int hw);
void ff_clvf_describe_frame(const AVFrame *f, int hw, clvf_pixel_format format, clvf_frame *out);

/* The clvf format of an FFmpeg one (0 when clvf has none). */
clvf_pixel_format ff_clvf_format(enum AVPixelFormat f);
/* The FFmpeg format of a clvf one (AV_PIX_FMT_NONE for yv12, which FFmpeg frames are not). */
enum AVPixelFormat ff_clvf_av_format(clvf_pixel_format f);

#endif /* AVFILTER_CLVF_FILTER_H */
