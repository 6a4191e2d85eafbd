/* Benchmark (not a test): operation throughput through the C API alone, no FFmpeg, for host
 * frames one at a time (upload + kernels + download), host frames with CLVF_MAX_IN_FLIGHT in
 * flight (submit / complete: copies overlap kernels on discrete GPUs), and frames already in cl
 * buffers (kernels only), one at a time (the host waits for each) and in flight (the device's
 * pace, with no host round trip between frames); last, host frames one at a time again with both
 * frames in host buffers (clvf_host_buffer_alloc: no map after the kernels), where the device has
 * them.
 *   throughput scale [algorithm[:SRC_FMT:DST_FMT]] [frames] [SRC_WxH] [DST_WxH]
 *                                                   defaults: bicubic 300 1920x1080 1280x720, NV12
 *   (with formats, the scale converts in the same operation: p010 is taken as BT.2020 and
 *   converted to BT.709)
 *   throughput denoise [s:p:r[:t]] [frames] [WxH]              defaults: 4:7:15:0 20 1920x1080
 *   throughput colorspace [in:out[:SRC_FMT:DST_FMT]] [frames] [WxH]  defaults: bt601:bt709:nv12:nv12 300 1920x1080
 *   (formats nv12, p010, yuv420p, yv12, yuv444p, rgba, bgra; scale: nv12, p010, yuv420p, yuv444p)
 * (denoise with t > 0 streams through send/receive, or submit/complete in flight: each frame is
 *  also copied into the ring)
 * NV12. The device is CLVF_DEVICE's, else the first GPU, else the first device. With
 * CLVF_PROFILE=1 each mode also prints its kernel times from OpenCL events. */
#define CL_TARGET_OPENCL_VERSION 120
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <CL/cl.h>
#include <clvf/clvf.h>

#define CLVF_STR_(x) #x
#define CLVF_STR(x) CLVF_STR_(x)

typedef struct op {
    void *handle;
    clvf_status (*process)(void *, const clvf_frame *, const clvf_frame *);
    clvf_status (*submit)(void *, const clvf_frame *, const clvf_frame *); /* NULL: no asynchronous use */
    clvf_status (*complete)(void *);
    const char *(*profile)(const void *);
    void (*release)(void *);
} op;

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

/* The planes of a frame of `format` at w x h, packed one after another: their count, pitches
 * (the bytes of a row) and rows. */
typedef struct layout {
    int planes;
    size_t pitch[3], rows[3];
} layout;
static layout layout_of(const char *format, int w, int h)
{
    const size_t cw = (size_t)(w + 1) / 2, ch = (size_t)(h + 1) / 2;
    if (!strcmp(format, "nv12"))
        return (layout){2, {w, 2 * cw}, {h, ch}};
    if (!strcmp(format, "p010"))
        return (layout){2, {2 * (size_t)w, 4 * cw}, {h, ch}};
    if (!strcmp(format, "yuv420p") || !strcmp(format, "yv12"))
        return (layout){3, {w, cw, cw}, {h, ch, ch}};
    if (!strcmp(format, "yuv444p"))
        return (layout){3, {w, w, w}, {h, h, h}};
    return (layout){1, {4 * (size_t)w}, {h}}; /* rgba, bgra (clvf_pixel_format_from_name checks the name) */
}
static size_t layout_bytes(layout l)
{
    size_t n = 0;
    for (int i = 0; i < l.planes; i++)
        n += l.pitch[i] * l.rows[i];
    return n;
}
static void describe(clvf_frame *f, clvf_storage storage, unsigned char *host, cl_mem mem, layout l)
{
    size_t offset = 0;
    memset(f, 0, sizeof(*f));
    f->storage = storage;
    for (int i = 0; i < l.planes; i++) {
        f->planes[i].pitch = l.pitch[i];
        if (storage == CLVF_STORAGE_HOST)
            f->planes[i].data = host + offset;
        else
            f->planes[i].mem = mem, f->planes[i].offset = offset;
        offset += l.pitch[i] * l.rows[i];
    }
}

/* One frame in, one out (after the first t, which only fill the window: the steady state). */
static clvf_status denoise_stream(clvf_denoise *d, const clvf_frame *src, const clvf_frame *dst)
{
    int got = 0;
    clvf_status st = clvf_denoise_send(d, src);
    return st != CLVF_OK ? st : clvf_denoise_receive(d, dst, &got);
}

/* The same stream with frames in flight: outputs started and not yet completed are counted, so
 * that the benchmark's loop completes only what a temporal denoise has started. */
static int denoise_pending;
static clvf_status denoise_submit(clvf_denoise *d, const clvf_frame *src, const clvf_frame *dst)
{
    int got = 0;
    clvf_status st = clvf_denoise_submit(d, src, dst, &got);
    denoise_pending += got;
    return st;
}
static clvf_status denoise_complete(clvf_denoise *d)
{
    if (!denoise_pending)
        return CLVF_OK;
    denoise_pending--;
    return clvf_denoise_complete(d);
}

static int fail(const char *what)
{
    fprintf(stderr, "throughput: %s: %s\n", what, clvf_last_error());
    return 1;
}

int main(int argc, char **argv)
{
    const int denoise = argc > 1 && !strcmp(argv[1], "denoise");
    const int colour = argc > 1 && !strcmp(argv[1], "colorspace");
    const char *setting = argc > 2 ? argv[2] : denoise ? "4:7:15" : colour ? "bt601:bt709" : "bicubic";
    int frames = argc > 3 ? atoi(argv[3]) : denoise ? 20 : 300, W = 1920, H = 1080, w = 1280, h = 720;
    char in_matrix[32] = "", out_matrix[32] = "", src_fmt[32] = "nv12", dst_fmt[32] = "nv12";
    double s = 4;
    int p = 7, r = 15, t = 0;
    clvf_device *dev = NULL;
    cl_context ctx;
    cl_int err = CL_SUCCESS;

    if (argc < 2 || (!denoise && !colour && strcmp(argv[1], "scale")) || frames < 1 ||
        (argc > 4 && sscanf(argv[4], "%dx%d", &W, &H) != 2) ||
        (!denoise && !colour && argc > 5 && sscanf(argv[5], "%dx%d", &w, &h) != 2) ||
        (denoise && sscanf(setting, "%lf:%d:%d:%d", &s, &p, &r, &t) < 3) ||
        (colour && sscanf(setting, "%31[^:]:%31[^:]:%31[^:]:%31s", in_matrix, out_matrix, src_fmt, dst_fmt) < 2)) {
        fprintf(stderr, "usage: %s scale [algorithm[:SRC_FMT:DST_FMT]] [frames] [SRC_WxH] [DST_WxH]\n"
                        "       %s denoise [s:p:r[:t]] [frames] [WxH]\n"
                        "       %s colorspace [in:out] [frames] [WxH]\n", argv[0], argv[0], argv[0]);
        return 2;
    }
    if (denoise || colour)
        w = W, h = H;
    char algorithm[32] = "";
    const int scale_formats = !denoise && !colour && sscanf(setting, "%31[^:]:%31[^:]:%31s", algorithm, src_fmt, dst_fmt) == 3;
    if (clvf_device_open(NULL, &dev) != CLVF_OK || clvf_device_handles(dev, &ctx, NULL, NULL) != CLVF_OK)
        return fail("device");
    printf("%s %dx%d -> %dx%d %s, %d frames, %s\n", argv[1], W, H, w, h, setting, frames, clvf_device_name(dev));
    for (int mode = 0; mode < 5; mode++) {
        const clvf_storage storage = mode == 2 || mode == 3 ? CLVF_STORAGE_CL_BUFFER : CLVF_STORAGE_HOST;
        const int in_flight = mode == 1 || mode == 3;
        const layout in_layout = layout_of(denoise ? "nv12" : src_fmt, W, H);
        const layout out_layout = layout_of(denoise ? "nv12" : dst_fmt, w, h);
        size_t in_bytes = layout_bytes(in_layout), out_bytes = layout_bytes(out_layout);
        clvf_host_buffer *hin = NULL, *hout = NULL;
        if (mode == 4 && (clvf_host_buffer_alloc(dev, in_bytes, &hin) != CLVF_OK ||
                          clvf_host_buffer_alloc(dev, out_bytes, &hout) != CLVF_OK)) {
            printf("  %-44s %s\n", "host frames in host buffers", clvf_last_error());
            clvf_host_buffer_release(hin);
            break;
        }
        unsigned char *in = hin ? clvf_host_buffer_pointer(hin) : malloc(in_bytes);
        unsigned char *out = hout ? clvf_host_buffer_pointer(hout) : malloc(out_bytes);
        cl_mem bin, bout;
        clvf_frame a, b;
        op o;
        double t0, elapsed;

        for (size_t i = 0; i < in_bytes; i++)
            in[i] = (unsigned char)(128 + rand() % 16);
        bin = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, in_bytes, in, &err);
        bout = clCreateBuffer(ctx, CL_MEM_READ_WRITE, out_bytes, NULL, &err);
        if (denoise) {
            clvf_denoise_params dp;
            clvf_denoise *d = NULL;
            clvf_denoise_params_default(&dp);
            dp.format = CLVF_PIX_NV12;
            dp.width = W, dp.height = H, dp.strength = s, dp.patch_size = p, dp.research_size = r;
            dp.temporal_radius = t;
            dp.src_storage = dp.dst_storage = storage;
            if (clvf_denoise_create(dev, &dp, &d) != CLVF_OK)
                return fail("denoise");
            o = (op){d, t ? (void *)denoise_stream : (void *)clvf_denoise_process, (void *)denoise_submit, (void *)denoise_complete,
                     (void *)clvf_denoise_profile, (void *)clvf_denoise_release};
        } else if (colour) {
            clvf_colorspace_params cp;
            clvf_colorspace *c = NULL;
            clvf_colorspace_params_default(&cp);
            cp.width = W, cp.height = H;
            cp.src_storage = cp.dst_storage = storage;
            if (clvf_pixel_format_from_name(src_fmt, &cp.src_format) != CLVF_OK ||
                clvf_pixel_format_from_name(dst_fmt, &cp.dst_format) != CLVF_OK ||
                clvf_matrix_from_name(in_matrix, &cp.src_matrix) != CLVF_OK ||
                clvf_matrix_from_name(out_matrix, &cp.dst_matrix) != CLVF_OK)
                return fail("colorspace");
            if (cp.src_format == CLVF_PIX_RGBA || cp.src_format == CLVF_PIX_BGRA)
                cp.src_range = CLVF_RANGE_PC; /* RGB is full range */
            if (cp.dst_format == CLVF_PIX_RGBA || cp.dst_format == CLVF_PIX_BGRA)
                cp.dst_range = CLVF_RANGE_PC;
            if (clvf_colorspace_create(dev, &cp, &c) != CLVF_OK)
                return fail("colorspace");
            o = (op){c, (void *)clvf_colorspace_process, (void *)clvf_colorspace_submit, (void *)clvf_colorspace_complete,
                     (void *)clvf_colorspace_profile, (void *)clvf_colorspace_release};
        } else {
            clvf_scale_params sp;
            clvf_scale *sc = NULL;
            clvf_scale_params_default(&sp);
            sp.format = CLVF_PIX_NV12;
            sp.src_width = W, sp.src_height = H, sp.dst_width = w, sp.dst_height = h;
            sp.src_storage = sp.dst_storage = storage;
            if (scale_formats) {
                if (clvf_pixel_format_from_name(src_fmt, &sp.format) != CLVF_OK ||
                    clvf_pixel_format_from_name(dst_fmt, &sp.dst_format) != CLVF_OK)
                    return fail("format");
                if (sp.format == CLVF_PIX_P010)
                    sp.src_matrix = CLVF_MATRIX_BT2020_NCL, sp.dst_matrix = CLVF_MATRIX_BT709;
            }
            if (clvf_scale_algorithm_from_name(algorithm, &sp.algorithm) != CLVF_OK || clvf_scale_create(dev, &sp, &sc) != CLVF_OK)
                return fail("scale");
            o = (op){sc, (void *)clvf_scale_process, (void *)clvf_scale_submit, (void *)clvf_scale_complete,
                     (void *)clvf_scale_profile, (void *)clvf_scale_release};
        }
        describe(&a, storage, in, bin, in_layout);
        describe(&b, storage, out, bout, out_layout);
        if (in_flight && o.submit) { /* warm; a denoise stream is one kind or the other */
            if (o.submit(o.handle, &a, &b) != CLVF_OK || o.complete(o.handle) != CLVF_OK)
                return fail("warm");
        } else {
            o.process(o.handle, &a, &b);
        }
        if (in_flight && !o.submit) {
            o.release(o.handle);
            clReleaseMemObject(bin);
            clReleaseMemObject(bout);
            free(in);
            free(out);
            continue;
        }
        t0 = now();
        for (int i = 0; i < frames; i++) {
            clvf_status st;
            if (!in_flight) {
                st = o.process(o.handle, &a, &b);
            } else {
                /* Every frame reads the same input and writes the same output: a benchmark of the
                 * pipeline, not of distinct frames. */
                st = i >= CLVF_MAX_IN_FLIGHT ? o.complete(o.handle) : CLVF_OK;
                if (st == CLVF_OK)
                    st = o.submit(o.handle, &a, &b);
            }
            if (st != CLVF_OK)
                return fail("process");
        }
        for (int i = 0; in_flight && i < (frames < CLVF_MAX_IN_FLIGHT ? frames : CLVF_MAX_IN_FLIGHT); i++)
            if (o.complete(o.handle) != CLVF_OK)
                return fail("complete");
        elapsed = now() - t0;
        printf("  %-44s %9.3f ms/frame %10.1f fps\n",
               mode == 0   ? "host frames, one at a time"
               : mode == 1 ? "host frames, " CLVF_STR(CLVF_MAX_IN_FLIGHT) " in flight"
               : mode == 2 ? "cl buffers (kernels only)"
               : mode == 3 ? "cl buffers, " CLVF_STR(CLVF_MAX_IN_FLIGHT) " in flight"
                           : "host frames in host buffers, one at a time",
               elapsed / frames * 1e3, frames / elapsed);
        printf("%s", o.profile(o.handle));
        o.release(o.handle);
        clReleaseMemObject(bin);
        clReleaseMemObject(bout);
        if (hin) {
            clvf_host_buffer_release(hin);
            clvf_host_buffer_release(hout);
        } else {
            free(in);
            free(out);
        }
    }
    clvf_device_release(dev);
    return 0;
}
