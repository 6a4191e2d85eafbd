/* Benchmark (not a test): scale throughput through the C API alone, no FFmpeg, for host frames
 * (upload + kernels + download) and for frames already in cl buffers (kernels only).
 *   scale_throughput [algorithm] [frames] [SRC_WxH] [DST_WxH]     defaults: bicubic 300 1920x1080 1280x720
 * NV12. The device is CLVF_DEVICE's, else the first GPU, else the first device. With
 * CLVF_PROFILE=1 each mode also prints its kernel times from OpenCL events. */
#define CL_TARGET_OPENCL_VERSION 120
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <CL/cl.h>
#include <clvf/clvf.h>

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

static void describe(clvf_frame *f, clvf_storage storage, unsigned char *host, cl_mem mem, int w, int h)
{
    memset(f, 0, sizeof(*f));
    f->storage = storage;
    f->planes[0].pitch = f->planes[1].pitch = (size_t)w;
    if (storage == CLVF_STORAGE_HOST) {
        f->planes[0].data = host;
        f->planes[1].data = host + (size_t)w * h;
    } else {
        f->planes[0].mem = f->planes[1].mem = mem;
        f->planes[1].offset = (size_t)w * h;
    }
}

int main(int argc, char **argv)
{
    const char *name = argc > 1 ? argv[1] : "bicubic";
    int frames = argc > 2 ? atoi(argv[2]) : 300, W = 1920, H = 1080, w = 1280, h = 720;
    clvf_device *dev = NULL;
    cl_context ctx;
    cl_int err = CL_SUCCESS;

    if ((argc > 3 && sscanf(argv[3], "%dx%d", &W, &H) != 2) || (argc > 4 && sscanf(argv[4], "%dx%d", &w, &h) != 2) ||
        frames < 1) {
        fprintf(stderr, "usage: %s [algorithm] [frames] [SRC_WxH] [DST_WxH]\n", argv[0]);
        return 2;
    }
    if (clvf_device_open(NULL, &dev) != CLVF_OK) {
        fprintf(stderr, "scale_throughput: %s\n", clvf_last_error());
        return 1;
    }
    if (clvf_device_handles(dev, &ctx, NULL, NULL) != CLVF_OK) {
        fprintf(stderr, "scale_throughput: %s\n", clvf_last_error());
        return 1;
    }
    printf("%dx%d -> %dx%d NV12 %s, %d frames, %s\n", W, H, w, h, name, frames, clvf_device_name(dev));
    for (int mode = 0; mode < 2; mode++) {
        clvf_storage storage = mode ? CLVF_STORAGE_CL_BUFFER : CLVF_STORAGE_HOST;
        size_t in_bytes = (size_t)W * H * 3 / 2, out_bytes = (size_t)w * h * 3 / 2;
        unsigned char *in = malloc(in_bytes), *out = malloc(out_bytes);
        cl_mem bin, bout;
        clvf_scale_params p;
        clvf_scale *s = NULL;
        clvf_frame a, b;
        double t0, t;

        for (size_t i = 0; i < in_bytes; i++)
            in[i] = (unsigned char)rand();
        bin = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, in_bytes, in, &err);
        bout = clCreateBuffer(ctx, CL_MEM_READ_WRITE, out_bytes, NULL, &err);
        clvf_scale_params_default(&p);
        p.format = CLVF_PIX_NV12;
        p.src_width = W, p.src_height = H, p.dst_width = w, p.dst_height = h;
        p.src_storage = p.dst_storage = storage;
        if (clvf_scale_algorithm_from_name(name, &p.algorithm) != CLVF_OK || clvf_scale_create(dev, &p, &s) != CLVF_OK) {
            fprintf(stderr, "scale_throughput: %s\n", clvf_last_error());
            return 1;
        }
        describe(&a, storage, in, bin, W, H);
        describe(&b, storage, out, bout, w, h);
        clvf_scale_process(s, &a, &b); /* warm */
        t0 = now();
        for (int i = 0; i < frames; i++)
            if (clvf_scale_process(s, &a, &b) != CLVF_OK) {
                fprintf(stderr, "scale_throughput: %s\n", clvf_last_error());
                return 1;
            }
        t = now() - t0;
        printf("  %-34s %8.3f ms/frame %10.1f fps\n", mode ? "cl buffers (kernels only)" : "host frames (upload, kernels, download)",
               t / frames * 1e3, frames / t);
        printf("%s", clvf_scale_profile(s));
        clvf_scale_release(s);
        clReleaseMemObject(bin);
        clReleaseMemObject(bout);
        free(in);
        free(out);
    }
    clvf_device_release(dev);
    return 0;
}
