/* clvf: OpenCL video filters. The public C API.
 *
 * Every call returns a clvf_status; on failure clvf_last_error() gives a message for the calling
 * thread that names what was wrong and what is allowed. Objects are created and planned once:
 * kernels, tables, intermediates and staging buffers are allocated there. Processing a frame
 * allocates nothing on the C++ heap (counted by tests/test_allocations.cpp) and no device memory
 * for pixels; the OpenCL driver still makes its objects per frame (events, and the cl_mem that
 * wraps a host plane used in place).
 *
 * Thread safety: a clvf_device may be shared by threads (its program cache is locked); one
 * operation (clvf_scale, clvf_denoise, clvf_colorspace) must be used by one thread at a time. */
#ifndef CLVF_CLVF_H
#define CLVF_CLVF_H

#include <stddef.h>
#include <stdint.h>

#ifndef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 120
#endif
#include <CL/cl.h>

#if defined(_WIN32)
#define CLVF_API __declspec(dllexport)
#else
#define CLVF_API __attribute__((visibility("default")))
#endif

#ifdef __cplusplus
extern "C" {
#endif

#define CLVF_API_VERSION 1

typedef enum clvf_status {
  CLVF_OK = 0,
  CLVF_ERROR_INVALID_ARGUMENT = 1, /* a bad option, size, format or pointer from the caller */
  CLVF_ERROR_UNSUPPORTED = 2,      /* valid, but not supported here (format, device feature) */
  CLVF_ERROR_NO_DEVICE = 3,        /* no OpenCL device matches the spec */
  CLVF_ERROR_OPENCL = 4,           /* an OpenCL call failed; the message names call and error */
  CLVF_ERROR_IO = 5,               /* a file could not be read or written */
  CLVF_ERROR_OUT_OF_MEMORY = 6,
  CLVF_ERROR_INTERNAL = 7,
  CLVF_ERROR_CUDA = 8              /* a CUDA driver call failed; the message names call and error */
} clvf_status;

/* The message of the last failed call on this thread ("" when none). */
CLVF_API const char *clvf_last_error(void);

typedef enum clvf_log_level {
  CLVF_LOG_ERROR = 0,
  CLVF_LOG_WARNING = 1,
  CLVF_LOG_INFO = 2,
  CLVF_LOG_DEBUG = 3
} clvf_log_level;
typedef void (*clvf_log_callback)(void *opaque, clvf_log_level level, const char *message);
/* Replaces the log sink (default: stderr for warnings and errors). NULL restores the default. */
CLVF_API void clvf_set_log_callback(clvf_log_callback cb, void *opaque);

/* Kernel times on request: devices opened (or wrapped without a queue) after clvf_request_profiling(1)
 * get queues that record them, as with CLVF_PROFILE=1; the operations' _profile calls report
 * them. Process-wide; affects only devices created afterwards. */
CLVF_API void clvf_request_profiling(int on);

/* ---- devices ---- */
typedef struct clvf_device clvf_device;

/* Opens a device by spec: NULL or "" (the CLVF_DEVICE environment variable, else "default":
 * the first GPU, else the first device), "cpu", "gpu", "accelerator", "P.D" (platform and device
 * indices, as clinfo -l lists them), or a case-insensitive part of the platform, vendor or device
 * name ("pocl", "nvidia", "oclgrind"). When nothing matches, the message lists the devices. */
CLVF_API clvf_status clvf_device_open(const char *spec, clvf_device **out);
/* Uses an existing context and device (e.g. FFmpeg's); queue may be NULL (one is created). The
 * objects are retained, not taken over. */
CLVF_API clvf_status clvf_device_wrap(cl_context context, cl_device_id device,
                                      cl_command_queue queue, clvf_device **out);
/* Windows: opens a device by spec (as clvf_device_open) in a context shared with a Direct3D
 * device, for frames of storage CLVF_STORAGE_D3D11 (kind CLVF_D3D11: an ID3D11Device) or
 * CLVF_STORAGE_DXVA2 (CLVF_DXVA2: an IDirect3DDeviceManager9, as FFmpeg's dxva2 device holds;
 * CLVF_D3D9EX: an IDirect3DDevice9Ex). The context holds a reference on the Direct3D object. Where
 * the platform lacks the sharing extensions, clvf provides them (copies at acquire and release;
 * see include/clvf/cl_interop.h). Elsewhere: CLVF_ERROR_UNSUPPORTED. */
typedef enum clvf_d3d_kind { CLVF_D3D11 = 1, CLVF_DXVA2 = 2, CLVF_D3D9EX = 3 } clvf_d3d_kind;
CLVF_API clvf_status clvf_device_open_d3d(const char *spec, clvf_d3d_kind kind, void *d3d,
                                          clvf_device **out);
/* Linux: opens a device for frames of storage CLVF_STORAGE_CUDA in `cuda_context` (a CUcontext,
 * as FFmpeg's AVCUDADeviceContext holds; it must outlive the device and its buffers). With spec
 * NULL or "" (and no CLVF_DEVICE), the OpenCL device that is the context's GPU (same UUID); a
 * spec naming another GPU is an error. The device must offer cl_khr_external_memory_opaque_fd
 * (NVIDIA's OpenCL does). The CUDA driver (libcuda.so.1) is loaded at run time: without it,
 * CLVF_ERROR_UNSUPPORTED. */
CLVF_API clvf_status clvf_device_open_cuda(const char *spec, void *cuda_context, clvf_device **out);
/* How the device orders its work on CUDA frames with CUDA's, without pixels leaving the GPU.
 * `stream` (a CUstream) is where the caller's CUDA work on the frames goes: NULL is the legacy
 * default stream, which is ordered with every blocking stream of the context (FFmpeg's decoders
 * use AVCUDADeviceContext.stream, NULL unless set).
 *   SEMAPHORES: a binary semaphore per frame side, made by OpenCL and imported into CUDA: the
 *     kernels wait on the GPU for the stream's work before them, and copies into a caller's
 *     destination wait on the GPU for the kernels; the host waits only for a destination that is
 *     handed on. Needs an OpenCL device that exports cl_khr_external_semaphore_opaque_fd
 *     semaphores (NVIDIA's driver 580 imports them only), else CLVF_ERROR_UNSUPPORTED.
 *   STREAM: the host waits for the stream (cuStreamSynchronize) before the kernels read, and for
 *     the queue (clFinish) before copying into a caller's destination.
 *   CONTEXT: as STREAM, waiting for all the context's pending work (cuCtxSynchronize) instead:
 *     for callers whose work on the frames is on streams they cannot name.
 *   AUTO (the default): SEMAPHORES where usable, else STREAM.
 * `used` (may be NULL) receives the one chosen. Call it before processing frames. */
typedef enum clvf_cuda_sync {
  CLVF_CUDA_SYNC_AUTO = 0,
  CLVF_CUDA_SYNC_SEMAPHORES = 1,
  CLVF_CUDA_SYNC_CONTEXT = 2,
  CLVF_CUDA_SYNC_STREAM = 3
} clvf_cuda_sync;
CLVF_API clvf_status clvf_device_set_cuda_sync(clvf_device *device, void *stream, clvf_cuda_sync sync,
                                               clvf_cuda_sync *used);
/* CUDA memory that the device's kernels use in place: allocated with CUDA's virtual memory API,
 * exported and imported into the device's OpenCL context once. Frame pools whose planes lie in
 * such buffers cost no copy. A buffer keeps what it needs alive: it may outlive its device. */
typedef struct clvf_cuda_buffer clvf_cuda_buffer;
CLVF_API clvf_status clvf_cuda_buffer_alloc(clvf_device *device, size_t size, clvf_cuda_buffer **out);
/* Its CUdeviceptr (as a pointer), size bytes or more. */
CLVF_API void *clvf_cuda_buffer_pointer(const clvf_cuda_buffer *buffer);
CLVF_API void clvf_cuda_buffer_release(clvf_cuda_buffer *buffer);
/* Another handle on the same device (context, queue, CUDA memory), released on its own: for what
 * may outlive the handle it came from (a frame pool). */
CLVF_API clvf_status clvf_device_share(clvf_device *device, clvf_device **out);
CLVF_API void clvf_device_release(clvf_device *device);
/* "platform / device" for logs; valid while the device lives. */
CLVF_API const char *clvf_device_name(const clvf_device *device);
/* 1 where the device copies frames in system memory (CLVF_STORAGE_HOST) through staging buffers
 * (discrete GPUs): a host source is then read before submit returns and may be freed or reused
 * at once; 0 where the device uses host frames in place (CPUs, shared memory), so that a source
 * stays in use until its frame completes. 0 for a NULL device. */
CLVF_API int clvf_device_copies_host_frames(const clvf_device *device);
/* System memory that the device's kernels read and write where it lies, for the planes of host
 * frames (CLVF_STORAGE_HOST): a plane inside such a buffer needs no per-frame wrapping, and a
 * destination's results are visible once its frame completes, with no map command (on PoCL here
 * 1080p -> 720p spline36 yuv420p took 0.45-0.52 ms a frame against 0.52-0.76 in malloc memory,
 * bench/throughput.c). Fine-grained shared virtual memory: only on
 * devices that share host memory and offer it (PoCL's CPU device does); elsewhere
 * CLVF_ERROR_UNSUPPORTED, with what the device lacks, and callers use memory of their own as
 * before. Frames are otherwise as any host frame. A buffer keeps what it needs alive: it may
 * outlive its device. */
typedef struct clvf_host_buffer clvf_host_buffer;
CLVF_API clvf_status clvf_host_buffer_alloc(clvf_device *device, size_t size, clvf_host_buffer **out);
/* Its memory, size bytes or more, aligned to 128 bytes. */
CLVF_API void *clvf_host_buffer_pointer(const clvf_host_buffer *buffer);
CLVF_API void clvf_host_buffer_release(clvf_host_buffer *buffer);
/* The OpenCL objects behind a device, so that callers can make buffers and images in its
 * context; any out pointer may be NULL. Not retained: valid while the device lives. */
CLVF_API clvf_status clvf_device_handles(const clvf_device *device, cl_context *context,
                                         cl_device_id *device_id, cl_command_queue *queue);

/* ---- frames ---- */
/* Scale and denoise take NV12 and YUV420P; colorspace takes them all. 4:2:0 chroma planes are
 * (w+1)/2 x (h+1)/2. */
typedef enum clvf_pixel_format {
  CLVF_PIX_YUV420P = 1, /* Y, U, V planes, 8-bit */
  CLVF_PIX_NV12 = 2,    /* Y plane + interleaved UV plane, 8-bit */
  CLVF_PIX_YV12 = 3,    /* Y, V, U planes (YUV420P with the chroma planes swapped), 8-bit */
  CLVF_PIX_P010 = 4,    /* as NV12 with 16-bit little-endian samples holding 10 bits in the top bits */
  CLVF_PIX_YUV444P = 5, /* Y, U, V planes, full size, 8-bit */
  CLVF_PIX_RGBA = 6,    /* one plane, 4 bytes per pixel R, G, B, A (full range) */
  CLVF_PIX_BGRA = 7     /* one plane, 4 bytes per pixel B, G, R, A (full range) */
} clvf_pixel_format;

/* Looks up a format by its FFmpeg name (nv12, yuv420p, yv12, p010 (or p010le), yuv444p, rgba,
 * bgra); an unknown name is an error listing the known ones. */
CLVF_API clvf_status clvf_pixel_format_from_name(const char *name, clvf_pixel_format *out);

typedef enum clvf_storage {
  CLVF_STORAGE_HOST = 1,      /* planes[i].data + pitch in system memory */
  CLVF_STORAGE_CL_BUFFER = 2, /* planes[i].mem is a cl_mem buffer, + offset + pitch (bytes) */
  CLVF_STORAGE_CL_IMAGE = 3,  /* planes[i].mem is an image2d: CL_R (CL_RG for NV12's and P010's
                                 UV) of CL_UNORM_INT8 (P010: CL_UNORM_INT16); RGBA and BGRA as
                                 CL_RGBA / CL_BGRA of CL_UNORM_INT8 */
  /* Windows, on a device from clvf_device_open_d3d: Direct3D frames used through the sharing
   * extensions (include/clvf/cl_interop.h), each surface imported once and kept. */
  CLVF_STORAGE_D3D11 = 4,     /* d3d_resource: ID3D11Texture2D (NV12, P010; R8G8B8A8 / B8G8R8A8
                                 for RGBA / BGRA), d3d_subresource: its array slice */
  CLVF_STORAGE_DXVA2 = 5,     /* d3d_resource: IDirect3DSurface9 in D3DPOOL_DEFAULT (NV12; YV12
                                 for YUV420P; A8B8G8R8 / A8R8G8B8 for RGBA / BGRA) */
  /* Linux, on a device from clvf_device_open_cuda: planes[i].data is a CUDA device pointer
   * (CUdeviceptr) in that context, + pitch. Planes inside a clvf_cuda_buffer are used in place;
   * others (cuMemAlloc memory, which OpenCL cannot import) are copied on the GPU into memory made
   * once. The context's pending CUDA work is waited for before the kernels read a source, and the
   * kernels before a destination is handed back: no pixel passes through the host. */
  CLVF_STORAGE_CUDA = 6
} clvf_storage;

/* Chroma sample position of 4:2:0 (H.273 / AVChromaLocation numbering). */
typedef enum clvf_chroma_location {
  CLVF_CHROMA_LEFT = 1,   /* MPEG-2, H.264 default: horizontally co-sited, vertically centred */
  CLVF_CHROMA_CENTER = 2, /* MPEG-1 / JPEG: centred both ways */
  CLVF_CHROMA_TOPLEFT = 3 /* co-sited both ways */
} clvf_chroma_location;

typedef struct clvf_plane {
  void *data;     /* CLVF_STORAGE_HOST */
  cl_mem mem;     /* CLVF_STORAGE_CL_BUFFER / CL_IMAGE */
  size_t offset;  /* bytes, buffers only */
  size_t pitch;   /* bytes per row, host and buffers */
} clvf_plane;

typedef struct clvf_frame {
  clvf_storage storage;
  clvf_plane planes[4];
  void *d3d_resource;        /* CLVF_STORAGE_D3D11 / DXVA2 */
  unsigned d3d_subresource;  /* CLVF_STORAGE_D3D11: the texture's array slice */
} clvf_frame;

/* Limits every operation checks; the filters' options and the chain's option strings allow the
 * same. */
#define CLVF_MAX_SIDE 16384           /* frame width and height, in and out: 1 to this */
#define CLVF_MAX_LANCZOS_TAPS 16      /* clvf_scale_params.taps: 1 to this */
#define CLVF_MAX_WINDOW 99            /* denoise patch and research sizes: odd, 1 to this */
#define CLVF_MAX_TEMPORAL_RADIUS 3    /* denoise temporal_radius: 0 to this */
#define CLVF_MAX_STRENGTH 30          /* denoise strength: 1 to this */
#define CLVF_MAX_CHAIN_STAGES 32      /* filters in one chain: 1 to this */

/* ---- scale ---- */
/* Filters as zimg defines them (the same names give the same weights). Downscaling widens every
 * filter by the ratio; edges are mirrored (half-sample symmetric), as zimg does. */
typedef enum clvf_scale_algorithm {
  CLVF_SCALE_BILINEAR = 1, /* triangle, support 1 */
  CLVF_SCALE_BICUBIC = 2,  /* Mitchell-Netravali cubic with B, C; support 2 */
  CLVF_SCALE_POINT = 3,    /* nearest sample */
  CLVF_SCALE_LANCZOS = 4,  /* sinc windowed by sinc, support = taps */
  CLVF_SCALE_SPLINE16 = 5, /* support 2 */
  CLVF_SCALE_SPLINE36 = 6, /* support 3 */
  CLVF_SCALE_SPLINE64 = 7, /* support 4 */
  CLVF_SCALE_AREA = 8      /* box over the area each output sample covers (exact overlap); bilinear when upscaling */
} clvf_scale_algorithm;

/* Matrix coefficients, H.273 / AVColorSpace numbering. BT470BG and SMPTE170M are both BT.601. */
typedef enum clvf_matrix {
  CLVF_MATRIX_BT709 = 1,
  CLVF_MATRIX_BT470BG = 5,
  CLVF_MATRIX_SMPTE170M = 6,
  CLVF_MATRIX_SMPTE240M = 7,
  CLVF_MATRIX_BT2020_NCL = 9
} clvf_matrix;

/* AVColorRange numbering. tv: Y 16-235, chroma 16-240 (scaled by 4 at 10 bits); pc: 0-255. */
typedef enum clvf_range { CLVF_RANGE_TV = 1, CLVF_RANGE_PC = 2 } clvf_range;

typedef enum clvf_dither {
  CLVF_DITHER_AUTO = 0,   /* ordered where the output has fewer bits than the source, else none */
  CLVF_DITHER_NONE = 1,   /* round to nearest: no added noise, the smallest error per sample */
  CLVF_DITHER_ORDERED = 2 /* 16x16 Bayer thresholds: the mean error over an area vanishes */
} clvf_dither;

typedef struct clvf_scale_params {
  uint32_t version; /* CLVF_API_VERSION */
  clvf_pixel_format format; /* nv12, yuv420p, yv12, p010, yuv444p */
  int src_width, src_height, dst_width, dst_height;
  clvf_scale_algorithm algorithm;
  double param_b, param_c; /* bicubic B and C (Mitchell-Netravali), 0..1; ignored otherwise */
  int taps;                 /* lanczos taps, 1..CLVF_MAX_LANCZOS_TAPS; ignored otherwise */
  clvf_chroma_location chroma_location;
  clvf_storage src_storage, dst_storage;
  /* Colour conversion in the same operation, as clvf_colorspace does it, on the scaled samples
   * before any rounding (the chroma resampling it needs uses `algorithm`). All 0: none. */
  clvf_pixel_format dst_format;       /* 0: format; any format, RGBA and BGRA included */
  clvf_matrix src_matrix, dst_matrix; /* 0: BT.709; the source's */
  clvf_range src_range, dst_range;    /* 0: tv; the source's (pc for RGB) */
  clvf_dither dither;                 /* 0: auto */
} clvf_scale_params;

/* Fills params with defaults: bicubic B=1/3 C=1/3, lanczos taps 3, left chroma, host storage, no
 * conversion. */
CLVF_API void clvf_scale_params_default(clvf_scale_params *params);
/* Looks up an algorithm by name: point (or neighbor), bilinear, bicubic, lanczos, spline16,
 * spline36, spline64, area. An unknown name is an error whose message lists the known ones. */
CLVF_API clvf_status clvf_scale_algorithm_from_name(const char *name, clvf_scale_algorithm *out);

typedef struct clvf_scale clvf_scale;
/* Validates the parameters, builds (or loads from the binary cache) the kernels and allocates
 * every buffer a frame needs. */
CLVF_API clvf_status clvf_scale_create(clvf_device *device, const clvf_scale_params *params,
                                       clvf_scale **out);
/* Scales src into dst (storages as given at creation). Returns when dst is complete. */
CLVF_API clvf_status clvf_scale_process(clvf_scale *scale, const clvf_frame *src,
                                        const clvf_frame *dst);
/* Asynchronous use, for several frames in flight (on a discrete GPU one frame's copies then
 * overlap another's kernels): submit starts the frame and returns; complete waits for the oldest
 * frame submitted and finishes it (with host storage its output is in dst when complete
 * returns). At most CLVF_MAX_IN_FLIGHT frames may be in flight; src and dst must stay valid and
 * unchanged until their frame completes (a host src only until submit returns where
 * clvf_device_copies_host_frames). A failed submit leaves nothing in flight for that frame. */
#define CLVF_MAX_IN_FLIGHT 3
CLVF_API clvf_status clvf_scale_submit(clvf_scale *scale, const clvf_frame *src, const clvf_frame *dst);
CLVF_API clvf_status clvf_scale_complete(clvf_scale *scale);
/* Event-driven use, for frames in OpenCL memory (CLVF_STORAGE_CL_BUFFER / CL_IMAGE as the params
 * say) on a context the caller shares (clvf_device_wrap, or clvf_device_handles): the frame's
 * kernels start once the num_wait events in `wait` are complete (the caller's commands that
 * write src, or still read dst), and *done (when not NULL) receives an event that completes when
 * dst is written, to wait on or to put in the wait list of the caller's own commands; the caller
 * releases it (clReleaseEvent). Nothing waits on the host and no complete follows; src and dst
 * must stay valid until *done completes. Frames in other storages are refused (their copies need
 * the host: submit and complete). */
CLVF_API clvf_status clvf_scale_enqueue(clvf_scale *scale, const clvf_frame *src, const clvf_frame *dst,
                                        cl_uint num_wait, const cl_event *wait, cl_event *done);
CLVF_API void clvf_scale_release(clvf_scale *scale);
/* Kernel times so far, one line per kernel and plane (runs, mean/min/max ms, share), when the
 * device's queue records them (CLVF_PROFILE=1, or a wrapped queue with
 * CL_QUEUE_PROFILING_ENABLE); "" otherwise. Per-thread string, valid until the thread's next call. */
CLVF_API const char *clvf_scale_profile(const clvf_scale *scale);

/* ---- denoise ---- */
/* Non-local means with the weights of FFmpeg's nlmeans filter, so that the same strength and
 * sizes give the same picture: for every offset o of the research window, the sum of squared
 * differences (ssd) over the patches around p and p + o (edge samples repeated) gives the weight
 * exp(-ssd / (10 s)^2), or 0 once it falls below 1/255; the output is the weighted mean of the
 * candidates, the pixel itself counting with weight 1. Each plane is filtered on its own (NV12's
 * U and V included). */
/* How a patch distance becomes a weight, u = ssd / (10 s)^2: */
typedef enum clvf_denoise_weighting {
  CLVF_WEIGHT_WELSCH = 0,     /* exp(-u), 0 below 1/255: FFmpeg's nlmeans (KNLMeansCL's wmode 0) */
  CLVF_WEIGHT_BISQUARE_A = 1, /* max(0, 1 - u): KNLMeansCL's wmode 1 */
  CLVF_WEIGHT_BISQUARE_B = 2, /* max(0, 1 - u)^2: wmode 2 */
  CLVF_WEIGHT_BISQUARE_C = 3  /* max(0, 1 - u)^8: wmode 3 */
} clvf_denoise_weighting;

typedef struct clvf_denoise_params {
  uint32_t version; /* CLVF_API_VERSION */
  clvf_pixel_format format;
  int width, height;
  double strength;        /* s, 1..CLVF_MAX_STRENGTH (luma; chroma too unless strength_chroma is set) */
  double strength_chroma; /* 0 = strength, else 1..CLVF_MAX_STRENGTH */
  int patch_size;         /* odd, 1..CLVF_MAX_WINDOW */
  int patch_size_chroma;  /* 0 = patch_size, else odd 1..CLVF_MAX_WINDOW */
  int research_size;      /* odd, 1..CLVF_MAX_WINDOW */
  int research_size_chroma; /* 0 = research_size, else odd 1..CLVF_MAX_WINDOW */
  unsigned planes;        /* bit i set: plane i is denoised; others are copied */
  clvf_storage src_storage, dst_storage;
  int temporal_radius;    /* t, 0..CLVF_MAX_TEMPORAL_RADIUS: 0 spatial; else the t frames before and after are searched too
                             (every offset of the research window, (0, 0) included) */
  clvf_denoise_weighting weighting;
} clvf_denoise_params;

/* Defaults: s=1 (FFmpeg's), patch 7, research 15, every plane, host storage. */
CLVF_API void clvf_denoise_params_default(clvf_denoise_params *params);

/* Checks parameters without a device (as create does first); the message names the bad field. */
CLVF_API clvf_status clvf_denoise_validate(const clvf_denoise_params *params);

typedef struct clvf_denoise clvf_denoise;
CLVF_API clvf_status clvf_denoise_create(clvf_device *device, const clvf_denoise_params *params,
                                         clvf_denoise **out);
/* Spatial (t = 0) only: denoises src into dst (same size and format; storages as given at
 * creation). Returns when dst is complete. */
CLVF_API clvf_status clvf_denoise_process(clvf_denoise *denoise, const clvf_frame *src,
                                          const clvf_frame *dst);
/* Streams, any t: send frames in display order and receive outputs in the same order. With t > 0
 * a frame is copied to the device before send returns, and frame n's output is ready once frame
 * n + t has been sent; src = NULL ends the stream, after which the last outputs (made from the
 * frames there are) become ready. With t = 0 the output is ready at once, and src must stay valid
 * until it is received. Sending more than t + 1 frames ahead of receive is an error. A send after
 * the end, once everything is received, starts a new stream. */
CLVF_API clvf_status clvf_denoise_send(clvf_denoise *denoise, const clvf_frame *src);
/* Writes the next output into dst and sets *got to 1, or sets *got to 0 when none is ready. */
CLVF_API clvf_status clvf_denoise_receive(clvf_denoise *denoise, const clvf_frame *dst, int *got);
/* The same stream with frames in flight, any t (a stream uses send/receive or submit, not both):
 * submit sends src (NULL: the end) and, when that makes an output ready, starts it into dst and
 * sets *got to 1; complete finishes the oldest output started, as clvf_scale_complete (at most
 * CLVF_MAX_IN_FLIGHT in flight; src and dst stay in use until then). *got 0: no output yet (the
 * first t frames, or nothing left after the end), dst untouched and src already read. */
CLVF_API clvf_status clvf_denoise_submit(clvf_denoise *denoise, const clvf_frame *src, const clvf_frame *dst,
                                         int *got);
CLVF_API clvf_status clvf_denoise_complete(clvf_denoise *denoise);
CLVF_API void clvf_denoise_release(clvf_denoise *denoise);
/* Kernel times, as clvf_scale_profile. */
CLVF_API const char *clvf_denoise_profile(const clvf_denoise *denoise);

/* ---- colorspace ---- */
/* Conversion between YUV matrices, ranges, bit depths, chroma subsampling and RGB. Every output
 * sample is the exact affine map of the source samples at its position (float arithmetic),
 * rounded or dithered once. Chroma is resampled only where the grids differ: 4:2:0 chroma for
 * samples on the luma grid (luma of a new matrix, 4:4:4 and RGB outputs) is interpolated with
 * chroma_filter; 4:2:0 outputs from 4:4:4 or RGB sources are downsampled with it (widened by 2,
 * as zimg does); 4:2:0 to 4:2:0 chroma is converted at its own sites, with no resampling. */

typedef struct clvf_colorspace_params {
  uint32_t version; /* CLVF_API_VERSION */
  int width, height;
  clvf_pixel_format src_format, dst_format;
  clvf_matrix src_matrix, dst_matrix; /* ignored for RGBA / BGRA */
  clvf_range src_range, dst_range;    /* RGBA / BGRA are pc only */
  clvf_chroma_location chroma_location; /* of the 4:2:0 formats, source and destination */
  clvf_scale_algorithm chroma_filter;   /* for the chroma resampling described above */
  double param_b, param_c;              /* bicubic B and C */
  int taps;                             /* lanczos taps */
  clvf_dither dither;
  clvf_storage src_storage, dst_storage;
} clvf_colorspace_params;

/* Defaults: NV12 to NV12, BT.709 tv to BT.709 tv, left chroma, bilinear chroma filter (zimg's
 * default), dither auto, host storage. */
CLVF_API void clvf_colorspace_params_default(clvf_colorspace_params *params);
/* Names: bt709, bt601 (= bt470bg, smpte170m), smpte240m, bt2020nc (= bt2020ncl); tv (= limited,
 * mpeg), pc (= full, jpeg); auto, none, ordered. Unknown names are errors listing the known. */
CLVF_API clvf_status clvf_matrix_from_name(const char *name, clvf_matrix *out);
CLVF_API clvf_status clvf_range_from_name(const char *name, clvf_range *out);
CLVF_API clvf_status clvf_dither_from_name(const char *name, clvf_dither *out);
CLVF_API clvf_status clvf_colorspace_validate(const clvf_colorspace_params *params);

typedef struct clvf_colorspace clvf_colorspace;
CLVF_API clvf_status clvf_colorspace_create(clvf_device *device, const clvf_colorspace_params *params,
                                            clvf_colorspace **out);
/* Converts src into dst (same size; formats and storages as given at creation). Returns when dst
 * is complete. */
CLVF_API clvf_status clvf_colorspace_process(clvf_colorspace *colorspace, const clvf_frame *src,
                                             const clvf_frame *dst);
/* Asynchronous use, as clvf_scale_submit / clvf_scale_complete. */
CLVF_API clvf_status clvf_colorspace_submit(clvf_colorspace *colorspace, const clvf_frame *src,
                                            const clvf_frame *dst);
CLVF_API clvf_status clvf_colorspace_complete(clvf_colorspace *colorspace);
/* Event-driven use, as clvf_scale_enqueue. */
CLVF_API clvf_status clvf_colorspace_enqueue(clvf_colorspace *colorspace, const clvf_frame *src,
                                             const clvf_frame *dst, cl_uint num_wait, const cl_event *wait,
                                             cl_event *done);
CLVF_API void clvf_colorspace_release(clvf_colorspace *colorspace);
/* Kernel times, as clvf_scale_profile. */
CLVF_API const char *clvf_colorspace_profile(const clvf_colorspace *colorspace);

/* ---- streams, planning and chains ---- */
/* What a stream's frames are. Colour tags 0 are untagged and read as the filters read untagged
 * frames: matrix BT.709 from 720 lines up, else BT.601; range tv (pc for RGBA / BGRA); chroma
 * left. */
typedef struct clvf_stream {
  uint32_t version; /* CLVF_API_VERSION */
  int width, height;
  clvf_pixel_format format;
  clvf_matrix matrix;
  clvf_range range;
  clvf_chroma_location chroma_location;
  int sar_num, sar_den; /* sample aspect ratio; 0: unknown (expressions then see 1) */
} clvf_stream;

/* ---- planning: the filters' rules, once ---- */
/* scale_clvf, colorspace_clvf, the chain and C callers plan an operation the same way: from a
 * request (the filter's options, each CLVF_UNSET where the user gave none) and the input stream
 * to the operation's params and the stream it outputs (size, format, aspect, colour tags). A
 * source coding not given is the stream's (untagged: as described at clvf_stream); the output
 * coding not given is the source's. Storages in params are left host. Errors name the filter's
 * option. Params are written whole (padding zeroed), so two plans compare with memcmp.
 * Thread-safe; no device needed. */
#define CLVF_UNSET (-1)

typedef struct clvf_scale_request {
  uint32_t version; /* CLVF_API_VERSION */
  /* w and h, evaluated: 0 the input's side; -1 from the other side, keeping the aspect ratio;
   * -n likewise, a multiple of n. The text they were written as (NULL: the numbers) is only
   * quoted in messages. */
  int width, height;
  const char *width_text, *height_text;
  int force_original_aspect_ratio; /* 0 disable, 1 decrease, 2 increase */
  int force_divisible_by;          /* 1..256: with force_original_aspect_ratio, rounds as FFmpeg 5.1 */
  clvf_scale_algorithm algorithm;
  double param0, param1; /* NaN: unset. Bicubic B and C, 0..1; lanczos: param0 = taps */
  /* Conversion in the same pass when any of these is given (the format even when it is the
   * input's): a clvf_pixel_format (0: the input's), and clvf_matrix / clvf_range / clvf_dither
   * values or CLVF_UNSET. */
  clvf_pixel_format format;
  int matrix, in_matrix, range, in_range, dither;
} clvf_scale_request;
/* Everything unset: w and h the input's, bicubic, no conversion. */
CLVF_API void clvf_scale_request_default(clvf_scale_request *request);
CLVF_API clvf_status clvf_scale_plan(const clvf_scale_request *request, const clvf_stream *input,
                                     clvf_scale_params *params, clvf_stream *output);

typedef struct clvf_colorspace_request {
  uint32_t version;         /* CLVF_API_VERSION */
  clvf_pixel_format format; /* 0: the input's */
  /* Values of clvf_matrix, clvf_range, clvf_chroma_location, clvf_dither, clvf_scale_algorithm,
   * or CLVF_UNSET. */
  int matrix, in_matrix, range, in_range, chroma_location, dither, chroma_filter;
} clvf_colorspace_request;
CLVF_API void clvf_colorspace_request_default(clvf_colorspace_request *request);
CLVF_API clvf_status clvf_colorspace_plan(const clvf_colorspace_request *request, const clvf_stream *input,
                                          clvf_colorspace_params *params, clvf_stream *output);

typedef struct clvf_chain clvf_chain;
/* Plans the operations of `chain` for a stream like `input` whose frames are held in
 * `src_storage` and whose outputs go to frames in `dst_storage`. `chain` is written as ffmpeg -vf
 * writes it, with the filters' own options and meanings ("denoise_clvf=preset=light,
 * scale_clvf=w=1280:h=-2"; preset= in a filter, explicit options winning; w and h expressions),
 * or is the name of a chain preset (presets/chains.preset: clvf_preset_names("chains")). Between
 * operations frames stay on the device. Errors name the filter and the option. One thread at a
 * time per chain. */
CLVF_API clvf_status clvf_chain_create(clvf_device *device, const char *chain, const clvf_stream *input,
                                       clvf_storage src_storage, clvf_storage dst_storage, clvf_chain **out);
/* Plans `chain` for `input` without a device: *output is what clvf_chain_create would output, or
 * the error is the one it would give for the options, formats and sizes (errors of a device are
 * not known here). Thread-safe. */
CLVF_API clvf_status clvf_chain_plan(const char *chain, const clvf_stream *input, clvf_stream *output);
/* What the chain outputs: size, format, colour tags, aspect. */
CLVF_API clvf_status clvf_chain_output(const clvf_chain *chain, clvf_stream *output);
/* Sends src (NULL: the end of the stream) and writes the next output into dst when one is ready,
 * setting *got to 1 (0 when none is: temporal denoise delays outputs by t frames). After the end,
 * call again with src = NULL until *got is 0; a frame sent after that starts a new stream. src is
 * read before the call returns. After an error the chain is in an unknown state: release it. */
CLVF_API clvf_status clvf_chain_process(clvf_chain *chain, const clvf_frame *src, const clvf_frame *dst,
                                        int *got);
/* The same with frames in flight: submit sends src (NULL: the end) and, when an output comes out
 * of the chain, starts it into dst and sets *got to 1; complete finishes the oldest output started
 * (at most CLVF_MAX_IN_FLIGHT in flight; src and dst stay in use until then). *got 0: src has been
 * read, dst is untouched. A frame's stages run one after another on the device with no host wait
 * between them. */
CLVF_API clvf_status clvf_chain_submit(clvf_chain *chain, const clvf_frame *src, const clvf_frame *dst, int *got);
CLVF_API clvf_status clvf_chain_complete(clvf_chain *chain);
CLVF_API void clvf_chain_release(clvf_chain *chain);

/* ---- presets ---- */
/* The option string of preset `name` for `filter` ("scale_clvf"): a preset shipped with clvf
 * (presets/FILTER.preset), or, when name contains '/', the one entry of that file (PATH) or the
 * entry NAME of it (PATH#NAME). On success *options points to a per-thread string valid until
 * the thread's next clvf_preset_* call. An unknown name is an error listing the known ones. */
CLVF_API clvf_status clvf_preset_options(const char *filter, const char *name, const char **options);
/* The names of the presets shipped for `filter`, comma separated ("" when none); per-thread
 * string as above. */
CLVF_API const char *clvf_preset_names(const char *filter);

#ifdef __cplusplus
}
#endif
#endif
