/* A minimal user of the C API without FFmpeg: scales raw YUV420P or NV12 frames from a file.
 *   scale_raw FORMAT IN_WxH OUT_WxH in.raw out.raw [device]
 * FORMAT is yuv420p or nv12. Frames are planned once and processed one by one. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <clvf/clvf.h>

static size_t frame_bytes(int w, int h) { return (size_t)w * h + 2 * (size_t)((w + 1) / 2) * ((h + 1) / 2); }

static void describe(clvf_frame *f, unsigned char *base, clvf_pixel_format fmt, int w, int h)
{
    int cw = (w + 1) / 2, ch = (h + 1) / 2;
    memset(f, 0, sizeof(*f));
    f->storage = CLVF_STORAGE_HOST;
    f->planes[0].data = base;
    f->planes[0].pitch = (size_t)w;
    if (fmt == CLVF_PIX_NV12) {
        f->planes[1].data = base + (size_t)w * h;
        f->planes[1].pitch = (size_t)cw * 2;
    } else {
        f->planes[1].data = base + (size_t)w * h;
        f->planes[1].pitch = (size_t)cw;
        f->planes[2].data = base + (size_t)w * h + (size_t)cw * ch;
        f->planes[2].pitch = (size_t)cw;
    }
}

int main(int argc, char **argv)
{
    clvf_scale_params p;
    clvf_device *dev = NULL;
    clvf_scale *scale = NULL;
    unsigned char *in = NULL, *out = NULL;
    FILE *fi = NULL, *fo = NULL;
    clvf_frame src, dst;
    int ret = 1, frames = 0;

    if (argc < 6) {
        fprintf(stderr, "usage: %s yuv420p|nv12 IN_WxH OUT_WxH in.raw out.raw [device]\n", argv[0]);
        return 2;
    }
    clvf_scale_params_default(&p);
    if (!strcmp(argv[1], "nv12"))
        p.format = CLVF_PIX_NV12;
    else if (strcmp(argv[1], "yuv420p")) {
        fprintf(stderr, "format '%s' is not supported; allowed: yuv420p, nv12\n", argv[1]);
        return 2;
    }
    if (sscanf(argv[2], "%dx%d", &p.src_width, &p.src_height) != 2 ||
        sscanf(argv[3], "%dx%d", &p.dst_width, &p.dst_height) != 2) {
        fprintf(stderr, "sizes are WIDTHxHEIGHT, e.g. 1920x1080\n");
        return 2;
    }
    if (clvf_device_open(argc > 6 ? argv[6] : NULL, &dev) != CLVF_OK ||
        clvf_scale_create(dev, &p, &scale) != CLVF_OK) {
        fprintf(stderr, "scale_raw: %s\n", clvf_last_error());
        goto end;
    }
    in = malloc(frame_bytes(p.src_width, p.src_height));
    out = malloc(frame_bytes(p.dst_width, p.dst_height));
    if (!in || !out || !(fi = fopen(argv[4], "rb")) || !(fo = fopen(argv[5], "wb"))) {
        fprintf(stderr, "scale_raw: cannot open %s or %s\n", argv[4], argv[5]);
        goto end;
    }
    describe(&src, in, p.format, p.src_width, p.src_height);
    describe(&dst, out, p.format, p.dst_width, p.dst_height);
    while (fread(in, 1, frame_bytes(p.src_width, p.src_height), fi) == frame_bytes(p.src_width, p.src_height)) {
        if (clvf_scale_process(scale, &src, &dst) != CLVF_OK) {
            fprintf(stderr, "scale_raw: frame %d: %s\n", frames, clvf_last_error());
            goto end;
        }
        fwrite(out, 1, frame_bytes(p.dst_width, p.dst_height), fo);
        frames++;
    }
    fprintf(stderr, "scale_raw: %d frames on %s\n", frames, clvf_device_name(dev));
    ret = frames > 0 ? 0 : 1;
end:
    if (fi) fclose(fi);
    if (fo && fclose(fo) != 0) ret = 1;
    free(in);
    free(out);
    clvf_scale_release(scale);
    clvf_device_release(dev);
    return ret;
}
