/*
 * FFmpeg's DXVA2 frames through a clvf filter, end to end under Wine: D3D9Ex NV12 surfaces made
 * here (CreateOffscreenPlainSurface: FFmpeg's own DXVA2 pools need the video service, a stub
 * under Wine) form a DXVA2 frames context with a caller-supplied pool; frames go through
 * buffer -> FILTER -> buffersink as DXVA2 frames, and the filter's DXVA2 output surfaces are read
 * back with LockRect. The input pattern is written as raw NV12 too, so that the Linux build can
 * filter the same frames (scripts/wine-test.sh compares the two outputs).
 *   dxva2_graph FILTER WIDTH HEIGHT FRAMES in.nv12 out.nv12   (DXVA2_GRAPH_VERBOSE=1: FFmpeg's verbose log)
 */
#define COBJMACROS
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <d3d9.h>
#include <dxva2api.h>

#include "libavfilter/buffersink.h"
#include "libavfilter/buffersrc.h"
#include "libavutil/hwcontext.h"
#include "libavutil/hwcontext_dxva2.h"

static int width, height;
static IDirect3DDevice9Ex *device;

static void fail(const char *what, int err)
{
    char text[128] = "";
    if (err < 0)
        av_strerror(err, text, sizeof(text));
    fprintf(stderr, "dxva2_graph: %s%s%s\n", what, err < 0 ? ": " : "", text);
    exit(1);
}

static void release_surface(void *opaque, uint8_t *data)
{
    IDirect3DSurface9_Release((IDirect3DSurface9 *)data);
}

static AVBufferRef *alloc_surface(void *opaque, size_t size)
{
    IDirect3DSurface9 *surface = NULL;
    if (FAILED(IDirect3DDevice9Ex_CreateOffscreenPlainSurface(device, width, height, (D3DFORMAT)MAKEFOURCC('N', 'V', '1', '2'),
                                                             D3DPOOL_DEFAULT, &surface, NULL)))
        return NULL;
    return av_buffer_create((uint8_t *)surface, sizeof(*surface), release_surface, NULL, 0);
}

/* NV12 rows of the locked surface <-> packed rows (luma, then interleaved chroma). */
static void copy_nv12(IDirect3DSurface9 *surface, uint8_t *packed, int w, int h, int to_surface)
{
    D3DLOCKED_RECT r;
    if (FAILED(IDirect3DSurface9_LockRect(surface, &r, NULL, to_surface ? 0 : D3DLOCK_READONLY)))
        fail("LockRect", 0);
    for (int y = 0; y < h * 3 / 2; y++) {
        uint8_t *row = (uint8_t *)r.pBits + (size_t)y * r.Pitch;
        if (to_surface)
            memcpy(row, packed + (size_t)y * w, w);
        else
            memcpy(packed + (size_t)y * w, row, w);
    }
    IDirect3DSurface9_UnlockRect(surface);
}

static void pattern(uint8_t *nv12, int w, int h, int n)
{
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++)
            nv12[y * w + x] = (uint8_t)((x * 7 + y * 3 + n * 11) ^ (x * y >> 5));
    for (int y = 0; y < h / 2; y++)
        for (int x = 0; x < w; x++)
            nv12[w * h + y * w + x] = (uint8_t)(128 + ((x + n) % 17) * 5 - ((y * 3) % 23));
}

int main(int argc, char **argv)
{
    IDirect3D9Ex *d3d;
    IDirect3DDeviceManager9 *manager;
    UINT token;
    D3DPRESENT_PARAMETERS pp = { 0 };
    AVBufferRef *device_ref, *frames_ref;
    AVHWFramesContext *frames;
    AVFilterGraph *graph;
    AVFilterContext *src, *sink;
    AVFilterInOut *in, *out;
    AVBufferSrcParameters *par;
    char args[256];
    int frames_count, err, got = 0, out_w = 0, out_h = 0;
    FILE *in_file, *out_file;
    uint8_t *buf;

    if (argc != 7)
        fail("usage: dxva2_graph FILTER WIDTH HEIGHT FRAMES in.nv12 out.nv12", 0);
    if (getenv("DXVA2_GRAPH_VERBOSE"))
        av_log_set_level(AV_LOG_VERBOSE);
    width = atoi(argv[2]);
    height = atoi(argv[3]);
    frames_count = atoi(argv[4]);

    if (FAILED(Direct3DCreate9Ex(D3D_SDK_VERSION, &d3d)))
        fail("Direct3DCreate9Ex", 0);
    pp.Windowed = TRUE;
    pp.SwapEffect = D3DSWAPEFFECT_DISCARD;
    pp.hDeviceWindow = GetDesktopWindow();
    if (FAILED(IDirect3D9Ex_CreateDeviceEx(d3d, D3DADAPTER_DEFAULT, D3DDEVTYPE_HAL, GetDesktopWindow(),
                                           D3DCREATE_SOFTWARE_VERTEXPROCESSING | D3DCREATE_MULTITHREADED, &pp, NULL,
                                           &device)))
        fail("CreateDeviceEx (is a display set?)", 0);
    if (FAILED(DXVA2CreateDirect3DDeviceManager9(&token, &manager)) ||
        FAILED(IDirect3DDeviceManager9_ResetDevice(manager, (IDirect3DDevice9 *)device, token)))
        fail("DXVA2CreateDirect3DDeviceManager9", 0);

    device_ref = av_hwdevice_ctx_alloc(AV_HWDEVICE_TYPE_DXVA2);
    ((AVDXVA2DeviceContext *)((AVHWDeviceContext *)device_ref->data)->hwctx)->devmgr = manager;
    if ((err = av_hwdevice_ctx_init(device_ref)) < 0)
        fail("av_hwdevice_ctx_init", err);
    frames_ref = av_hwframe_ctx_alloc(device_ref);
    frames = (AVHWFramesContext *)frames_ref->data;
    frames->format = AV_PIX_FMT_DXVA2_VLD;
    frames->sw_format = AV_PIX_FMT_NV12;
    frames->width = width;
    frames->height = height;
    ((AVDXVA2FramesContext *)frames->hwctx)->surface_type = DXVA2_VideoProcessorRenderTarget;
    frames->pool = av_buffer_pool_init2(sizeof(IDirect3DSurface9), NULL, alloc_surface, NULL);
    if ((err = av_hwframe_ctx_init(frames_ref)) < 0)
        fail("av_hwframe_ctx_init", err);

    graph = avfilter_graph_alloc();
    snprintf(args, sizeof(args), "video_size=%dx%d:pix_fmt=%d:time_base=1/25:pixel_aspect=1/1", width, height,
             AV_PIX_FMT_DXVA2_VLD);
    if ((err = avfilter_graph_create_filter(&src, avfilter_get_by_name("buffer"), "in", args, NULL, graph)) < 0)
        fail("buffer", err);
    par = av_buffersrc_parameters_alloc();
    par->format = AV_PIX_FMT_DXVA2_VLD;
    par->hw_frames_ctx = frames_ref;
    av_buffersrc_parameters_set(src, par);
    av_free(par);
    if ((err = avfilter_graph_create_filter(&sink, avfilter_get_by_name("buffersink"), "out", NULL, NULL, graph)) < 0)
        fail("buffersink", err);
    out = avfilter_inout_alloc();
    in = avfilter_inout_alloc();
    out->name = av_strdup("in");
    out->filter_ctx = src;
    in->name = av_strdup("out");
    in->filter_ctx = sink;
    if ((err = avfilter_graph_parse_ptr(graph, argv[1], &in, &out, NULL)) < 0)
        fail("the filter string", err);
    if ((err = avfilter_graph_config(graph, NULL)) < 0)
        fail("avfilter_graph_config", err);
    if (av_buffersink_get_format(sink) != AV_PIX_FMT_DXVA2_VLD)
        fail("the filter's output is not DXVA2 frames", 0);

    in_file = fopen(argv[5], "wb");
    out_file = fopen(argv[6], "wb");
    buf = malloc((size_t)width * height * 3 / 2 * 4);
    for (int n = 0; n <= frames_count; n++) {
        AVFrame *frame = av_frame_alloc();
        if (n < frames_count) {
            if ((err = av_hwframe_get_buffer(frames_ref, frame, 0)) < 0)
                fail("av_hwframe_get_buffer", err);
            pattern(buf, width, height, n);
            fwrite(buf, 1, (size_t)width * height * 3 / 2, in_file);
            copy_nv12((IDirect3DSurface9 *)frame->data[3], buf, width, height, 1);
            frame->pts = n;
            err = av_buffersrc_add_frame(src, frame);
        } else {
            err = av_buffersrc_add_frame(src, NULL); /* end of stream */
        }
        if (err < 0)
            fail("av_buffersrc_add_frame", err);
        while ((err = av_buffersink_get_frame(sink, frame)) >= 0) {
            out_w = frame->width;
            out_h = frame->height;
            copy_nv12((IDirect3DSurface9 *)frame->data[3], buf, out_w, out_h, 0);
            fwrite(buf, 1, (size_t)out_w * out_h * 3 / 2, out_file);
            got++;
            av_frame_unref(frame);
        }
        if (err != AVERROR(EAGAIN) && err != AVERROR_EOF)
            fail("av_buffersink_get_frame", err);
        av_frame_free(&frame);
    }
    fclose(in_file);
    fclose(out_file);
    printf("dxva2_graph: %d DXVA2 frames of %dx%d through %s, %d out at %dx%d\n", frames_count, width, height,
           argv[1], got, out_w, out_h);
    avfilter_graph_free(&graph);
    av_buffer_unref(&frames_ref);
    av_buffer_unref(&device_ref);
    free(buf);
    return got == frames_count ? 0 : 1;
}
