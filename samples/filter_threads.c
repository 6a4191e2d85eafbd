/* Several libavfilter graphs with clvf filters, one per thread, as a server running many jobs at
 * once: each thread builds its own graph (buffer -> scale_clvf -> denoise_clvf -> colorspace_clvf
 * -> buffersink), pushes the same frames through it and hashes every output frame. Every thread
 * must give the hashes of one graph run alone first. With "shared", all graphs take one OpenCL
 * device context (as with -filter_hw_device); else each filter opens its own device.
 *   filter_threads [threads] [frames] [shared]
 * Built by scripts/build-ffmpeg.sh against that FFmpeg's libraries. */
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "libavfilter/avfilter.h"
#include "libavfilter/buffersink.h"
#include "libavfilter/buffersrc.h"
#include "libavutil/frame.h"
#include "libavutil/hwcontext.h"

enum { W = 320, H = 180 };
static const char *kChain = "scale_clvf=w=256:h=144:algorithm=spline36,denoise_clvf=s=5:p=3:r=7,"
                            "colorspace_clvf=in_matrix=bt601:matrix=bt709:format=nv12";

struct job {
    int frames;
    AVBufferRef *device; /* NULL: each filter opens its own */
    uint64_t *hashes;    /* one per frame */
    int error;
    char message[256];
};

static uint64_t fnv1a(uint64_t h, const uint8_t *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        h = (h ^ p[i]) * 1099511628211ULL;
    return h;
}

/* Frame n: a moving gradient with pseudo-random grain, the same in every thread. */
static void fill(AVFrame *f, int n)
{
    uint32_t s = 2166136261u ^ (uint32_t)n;
    for (int p = 0; p < 3; p++) {
        const int w = p ? W / 2 : W, h = p ? H / 2 : H;
        for (int y = 0; y < h; y++)
            for (int x = 0; x < w; x++) {
                s = s * 1664525u + 1013904223u;
                f->data[p][y * f->linesize[p] + x] = (uint8_t)(((x + y + 3 * n) * (p + 1)) / 3 + (s >> 28));
            }
    }
}

static int fail(struct job *j, const char *what, int err)
{
    char buf[128];
    av_strerror(err, buf, sizeof buf);
    snprintf(j->message, sizeof j->message, "%s: %s", what, buf);
    j->error = err;
    return err;
}

static int run(struct job *j)
{
    AVFilterGraph *g = avfilter_graph_alloc();
    AVFilterContext *src = NULL, *sink = NULL;
    AVFilterInOut *in = avfilter_inout_alloc(), *out = avfilter_inout_alloc();
    AVFrame *frame = av_frame_alloc(), *got = av_frame_alloc();
    char args[128];
    int err, received = 0;
    if (!g || !in || !out || !frame || !got)
        return fail(j, "allocation", AVERROR(ENOMEM));
    snprintf(args, sizeof args, "video_size=%dx%d:pix_fmt=yuv420p:time_base=1/25:pixel_aspect=1/1", W, H);
    if ((err = avfilter_graph_create_filter(&src, avfilter_get_by_name("buffer"), "in", args, NULL, g)) < 0 ||
        (err = avfilter_graph_create_filter(&sink, avfilter_get_by_name("buffersink"), "out", NULL, NULL, g)) < 0)
        return fail(j, "buffer filters", err);
    out->name = av_strdup("in"), out->filter_ctx = src;
    in->name = av_strdup("out"), in->filter_ctx = sink;
    if ((err = avfilter_graph_parse_ptr(g, kChain, &in, &out, NULL)) < 0)
        return fail(j, "parsing the chain", err);
    for (unsigned i = 0; j->device && i < g->nb_filters; i++)
        g->filters[i]->hw_device_ctx = av_buffer_ref(j->device);
    if ((err = avfilter_graph_config(g, NULL)) < 0)
        return fail(j, "configuring the graph", err);
    for (int n = 0; n <= j->frames; n++) {
        if (n < j->frames) {
            /* (the source took the previous frame's references and reset it) */
            frame->format = AV_PIX_FMT_YUV420P, frame->width = W, frame->height = H;
            if ((err = av_frame_get_buffer(frame, 0)) < 0)
                return fail(j, "frame buffer", err);
            fill(frame, n);
            frame->pts = n;
            err = av_buffersrc_add_frame(src, frame);
        } else {
            err = av_buffersrc_add_frame(src, NULL); /* end of stream: the frames in flight come out */
        }
        if (err < 0)
            return fail(j, "sending a frame", err);
        while ((err = av_buffersink_get_frame(sink, got)) >= 0) {
            uint64_t h = 14695981039346656037ULL;
            for (int p = 0; p < 2; p++) /* NV12 */
                for (int y = 0; y < (p ? got->height / 2 : got->height); y++)
                    h = fnv1a(h, got->data[p] + y * got->linesize[p], got->width);
            if (received < j->frames)
                j->hashes[received] = h;
            received++;
            av_frame_unref(got);
        }
        if (err != AVERROR(EAGAIN) && err != AVERROR_EOF)
            return fail(j, "receiving a frame", err);
    }
    if (received != j->frames)
        return fail(j, "frame count", AVERROR_BUG);
    av_frame_free(&frame);
    av_frame_free(&got);
    avfilter_inout_free(&in);
    avfilter_inout_free(&out);
    avfilter_graph_free(&g);
    return 0;
}

static void *thread_main(void *arg)
{
    run(arg);
    return NULL;
}

int main(int argc, char **argv)
{
    const int threads = argc > 1 ? atoi(argv[1]) : 8, frames = argc > 2 ? atoi(argv[2]) : 500;
    const int shared = argc > 3 && !strcmp(argv[3], "shared");
    AVBufferRef *device = NULL;
    if (threads < 1 || threads > 64 || frames < 1) {
        fprintf(stderr, "usage: filter_threads [threads 1-64] [frames] [shared]\n");
        return 2;
    }
    if (shared && av_hwdevice_ctx_create(&device, AV_HWDEVICE_TYPE_OPENCL, "0.0", NULL, 0) < 0) {
        fprintf(stderr, "filter_threads: no OpenCL device 0.0 for the shared context\n");
        return 1;
    }
    struct job alone = { frames, device, calloc(frames, sizeof(uint64_t)), 0, "" };
    if (run(&alone) < 0) {
        fprintf(stderr, "filter_threads: one graph alone: %s\n", alone.message);
        return 1;
    }
    struct job *jobs = calloc(threads, sizeof *jobs);
    pthread_t *tid = calloc(threads, sizeof *tid);
    for (int t = 0; t < threads; t++) {
        jobs[t] = (struct job){ frames, device, calloc(frames, sizeof(uint64_t)), 0, "" };
        pthread_create(&tid[t], NULL, thread_main, &jobs[t]);
    }
    int bad = 0;
    for (int t = 0; t < threads; t++) {
        pthread_join(tid[t], NULL);
        if (jobs[t].error) {
            fprintf(stderr, "filter_threads: thread %d: %s\n", t, jobs[t].message);
            bad = 1;
            continue;
        }
        for (int n = 0; n < frames; n++)
            if (jobs[t].hashes[n] != alone.hashes[n]) {
                fprintf(stderr, "filter_threads: thread %d frame %d differs from the graph run alone\n", t, n);
                bad = 1;
                break;
            }
        free(jobs[t].hashes);
    }
    if (!bad)
        printf("filter_threads: %d graphs x %d frames (%s), every frame identical to one graph run alone\n",
               threads, frames, shared ? "one shared OpenCL device" : "a device per filter");
    free(alone.hashes);
    free(jobs);
    free(tid);
    av_buffer_unref(&device);
    return bad;
}
