/* A server's use of the C API: several streams, each on its own thread with its own operation
 * (scale 1280x720 NV12 to 640x360 with a conversion to BT.601 YUV420P, frames in flight through
 * submit/complete), all on one shared device. Each stream writes its outputs into host buffers
 * where the device has them (clvf_host_buffer_alloc: no map after the kernels), else into malloc'd
 * memory, and checks them against the same frames processed one at a time on the main thread
 * beforehand, into malloc'd memory: bit-identical, or it fails.
 *   server_streams [threads] [frames per thread] [device]      defaults: 8 100, the default device */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <clvf/clvf.h>

enum { SW = 1280, SH = 720, DW = 640, DH = 360, DISTINCT = 4 };

static clvf_device *device;
static unsigned char *inputs[DISTINCT], *expected[DISTINCT];
static int frames_per_thread = 100;
static int host_buffers;                          /* the device has them (main tries once) */
static char output_memory[256] = "host buffers"; /* what the streams' outputs are in */

/* `bytes` of memory for outputs: a host buffer where the device has them (*buffer set), else malloc's. */
static unsigned char *output_alloc(size_t bytes, clvf_host_buffer **buffer)
{
    *buffer = NULL;
    if (!host_buffers)
        return malloc(bytes);
    return clvf_host_buffer_alloc(device, bytes, buffer) == CLVF_OK ? clvf_host_buffer_pointer(*buffer) : NULL;
}

static void describe_nv12(clvf_frame *f, unsigned char *base, int w, int h)
{
    memset(f, 0, sizeof(*f));
    f->storage = CLVF_STORAGE_HOST;
    f->planes[0].data = base, f->planes[0].pitch = (size_t)w;
    f->planes[1].data = base + (size_t)w * h, f->planes[1].pitch = (size_t)w;
}

static void describe_yuv420p(clvf_frame *f, unsigned char *base, int w, int h)
{
    memset(f, 0, sizeof(*f));
    f->storage = CLVF_STORAGE_HOST;
    f->planes[0].data = base, f->planes[0].pitch = (size_t)w;
    f->planes[1].data = base + (size_t)w * h, f->planes[1].pitch = (size_t)w / 2;
    f->planes[2].data = base + (size_t)w * h * 5 / 4, f->planes[2].pitch = (size_t)w / 2;
}

static clvf_scale *create(void)
{
    clvf_scale_params p;
    clvf_scale *s = NULL;
    clvf_scale_params_default(&p);
    p.format = CLVF_PIX_NV12;
    p.src_width = SW, p.src_height = SH, p.dst_width = DW, p.dst_height = DH;
    p.algorithm = CLVF_SCALE_SPLINE36;
    p.dst_format = CLVF_PIX_YUV420P, p.src_matrix = CLVF_MATRIX_BT709, p.dst_matrix = CLVF_MATRIX_SMPTE170M;
    if (clvf_scale_create(device, &p, &s) != CLVF_OK)
        fprintf(stderr, "server_streams: %s\n", clvf_last_error());
    return s;
}

/* One stream: frame n is input n % DISTINCT (offset by the stream's number), CLVF_MAX_IN_FLIGHT in
 * flight; every output is compared with the expected one. Returns the number of bad frames, or -1. */
static void *stream(void *arg)
{
    const int id = (int)(intptr_t)arg;
    const size_t out_bytes = (size_t)DW * DH * 3 / 2;
    unsigned char *out[CLVF_MAX_IN_FLIGHT];
    clvf_host_buffer *buffers[CLVF_MAX_IN_FLIGHT];
    int which[CLVF_MAX_IN_FLIGHT], bad = 0;
    clvf_scale *s = create();
    clvf_frame src, dst;

    if (!s)
        return (void *)(intptr_t)-1;
    for (int i = 0; i < CLVF_MAX_IN_FLIGHT; i++)
        if (!(out[i] = output_alloc(out_bytes, &buffers[i]))) {
            fprintf(stderr, "server_streams: stream %d: %s\n", id, clvf_last_error());
            while (i--)
                buffers[i] ? clvf_host_buffer_release(buffers[i]) : free(out[i]);
            clvf_scale_release(s);
            return (void *)(intptr_t)-1;
        }
    for (int n = 0; n < frames_per_thread + CLVF_MAX_IN_FLIGHT; n++) {
        const int slot = n % CLVF_MAX_IN_FLIGHT;
        if (n >= CLVF_MAX_IN_FLIGHT) { /* the frame submitted CLVF_MAX_IN_FLIGHT ago */
            if (clvf_scale_complete(s) != CLVF_OK) {
                fprintf(stderr, "server_streams: stream %d: %s\n", id, clvf_last_error());
                bad = -1;
                break;
            }
            if (memcmp(out[slot], expected[which[slot]], out_bytes))
                bad++;
        }
        if (n >= frames_per_thread)
            continue;
        which[slot] = (n + id) % DISTINCT;
        describe_nv12(&src, inputs[which[slot]], SW, SH);
        describe_yuv420p(&dst, out[slot], DW, DH);
        memset(out[slot], 0xA5, out_bytes); /* poison */
        if (clvf_scale_submit(s, &src, &dst) != CLVF_OK) {
            fprintf(stderr, "server_streams: stream %d: %s\n", id, clvf_last_error());
            bad = -1;
            break;
        }
    }
    clvf_scale_release(s);
    for (int i = 0; i < CLVF_MAX_IN_FLIGHT; i++) {
        if (buffers[i])
            clvf_host_buffer_release(buffers[i]);
        else
            free(out[i]);
    }
    return (void *)(intptr_t)bad;
}

int main(int argc, char **argv)
{
    const int threads = argc > 1 ? atoi(argv[1]) : 8;
    pthread_t tid[64];
    int failed = 0;

    frames_per_thread = argc > 2 ? atoi(argv[2]) : 100;
    if (threads < 1 || threads > 64 || frames_per_thread < 1) {
        fprintf(stderr, "usage: server_streams [threads 1-64] [frames per thread] [device]\n");
        return 2;
    }
    if (clvf_device_open(argc > 3 ? argv[3] : NULL, &device) != CLVF_OK) {
        fprintf(stderr, "server_streams: %s\n", clvf_last_error());
        return 1;
    }
    clvf_host_buffer *probe = NULL;
    host_buffers = clvf_host_buffer_alloc(device, 64, &probe) == CLVF_OK;
    if (!host_buffers)
        snprintf(output_memory, sizeof output_memory, "malloc'd memory (%s)", clvf_last_error());
    clvf_host_buffer_release(probe);
    /* Distinct inputs (a moving gradient with a checker pattern), and their outputs made one at a time. */
    clvf_scale *ref = create();
    if (!ref)
        return 1;
    for (int k = 0; k < DISTINCT; k++) {
        clvf_frame src, dst;
        inputs[k] = malloc((size_t)SW * SH * 3 / 2);
        expected[k] = malloc((size_t)DW * DH * 3 / 2);
        for (int y = 0; y < SH * 3 / 2; y++)
            for (int x = 0; x < SW; x++)
                inputs[k][(size_t)y * SW + x] = (unsigned char)(x / 5 + y / 3 + 40 * k + (((x >> 4) ^ (y >> 4)) & 1) * 60);
        describe_nv12(&src, inputs[k], SW, SH);
        describe_yuv420p(&dst, expected[k], DW, DH);
        if (clvf_scale_process(ref, &src, &dst) != CLVF_OK) {
            fprintf(stderr, "server_streams: %s\n", clvf_last_error());
            return 1;
        }
    }
    clvf_scale_release(ref);

    for (int t = 0; t < threads; t++)
        pthread_create(&tid[t], NULL, stream, (void *)(intptr_t)t);
    for (int t = 0; t < threads; t++) {
        void *r;
        pthread_join(tid[t], &r);
        if ((intptr_t)r) {
            fprintf(stderr, "server_streams: stream %d: %d frames differ (or it failed: -1)\n", t, (int)(intptr_t)r);
            failed = 1;
        }
    }
    printf("server_streams: %d streams x %d frames on %s, outputs in %s: %s\n", threads, frames_per_thread,
           clvf_device_name(device), output_memory, failed ? "FAILED" : "every output identical to one-at-a-time");
    for (int k = 0; k < DISTINCT; k++)
        free(inputs[k]), free(expected[k]);
    clvf_device_release(device);
    return failed;
}
