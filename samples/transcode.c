/* A minimal transcoder on the C API without libavfilter: libavformat demuxes, libavcodec decodes,
 * clvf scales (and converts to YUV420P BT.709 in the same operation), libx264 encodes, and
 * libavformat muxes.
 *   transcode IN OUT WxH [device]
 * Decoded frames must be YUV420P, NV12, P010 or YUV444P in system memory. */
#include <stdio.h>
#include <stdlib.h>

#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavutil/opt.h>
#include <libavutil/pixdesc.h>

#include <clvf/clvf.h>

typedef struct Job {
    AVFormatContext *in, *out;
    AVCodecContext *dec, *enc;
    AVStream *out_stream;
    int stream;
    clvf_device *device;
    clvf_scale *scale;
    AVFrame *scaled;
    int64_t frames;
} Job;

static int fail(const char *what, int err)
{
    char msg[AV_ERROR_MAX_STRING_SIZE] = "";
    av_strerror(err, msg, sizeof(msg));
    fprintf(stderr, "transcode: %s: %s\n", what, msg);
    return err < 0 ? err : AVERROR_EXTERNAL;
}

static int clvf_fail(const char *what)
{
    fprintf(stderr, "transcode: %s: %s\n", what, clvf_last_error());
    return AVERROR_EXTERNAL;
}

static clvf_pixel_format clvf_format(enum AVPixelFormat f)
{
    switch (f) {
    case AV_PIX_FMT_YUV420P: return CLVF_PIX_YUV420P;
    case AV_PIX_FMT_NV12:    return CLVF_PIX_NV12;
    case AV_PIX_FMT_P010LE:  return CLVF_PIX_P010;
    case AV_PIX_FMT_YUV444P: return CLVF_PIX_YUV444P;
    default:                 return 0;
    }
}

static void describe(const AVFrame *f, clvf_frame *out)
{
    *out = (clvf_frame){ CLVF_STORAGE_HOST };
    for (int i = 0; i < 3 && f->data[i]; i++) {
        out->planes[i].data = f->data[i];
        out->planes[i].pitch = (size_t)f->linesize[i];
    }
}

/* Sends one frame (NULL: the end) to the encoder and writes what comes out. */
static int encode(Job *j, AVFrame *frame)
{
    AVPacket *pkt = av_packet_alloc();
    int err = avcodec_send_frame(j->enc, frame);
    while (err >= 0) {
        err = avcodec_receive_packet(j->enc, pkt);
        if (err == AVERROR(EAGAIN) || err == AVERROR_EOF) {
            err = 0;
            break;
        }
        if (err < 0)
            break;
        if (!pkt->duration) /* libx264 leaves it 0; the muxer's edit list would drop the last frame */
            pkt->duration = av_rescale_q(1, av_inv_q(j->enc->framerate), j->enc->time_base);
        av_packet_rescale_ts(pkt, j->enc->time_base, j->out_stream->time_base);
        pkt->stream_index = 0;
        err = av_interleaved_write_frame(j->out, pkt);
    }
    av_packet_free(&pkt);
    return err;
}

/* The scale is planned at the first frame, from its format, size and tags. */
static int convert_and_encode(Job *j, AVFrame *frame)
{
    clvf_frame src, dst;
    int err;

    if (!j->scale) {
        clvf_scale_params p;
        clvf_scale_params_default(&p);
        if (!(p.format = clvf_format(frame->format))) {
            fprintf(stderr, "transcode: decoded frames are %s; allowed: yuv420p, nv12, p010le, yuv444p\n",
                    av_get_pix_fmt_name(frame->format));
            return AVERROR(ENOSYS);
        }
        p.src_width = frame->width, p.src_height = frame->height;
        p.dst_width = j->enc->width, p.dst_height = j->enc->height;
        p.algorithm = CLVF_SCALE_SPLINE36;
        p.dst_format = CLVF_PIX_YUV420P;
        p.src_matrix = frame->colorspace == AVCOL_SPC_BT2020_NCL ? CLVF_MATRIX_BT2020_NCL
                       : frame->colorspace == AVCOL_SPC_SMPTE170M || frame->colorspace == AVCOL_SPC_BT470BG
                           ? CLVF_MATRIX_SMPTE170M
                           : CLVF_MATRIX_BT709;
        p.dst_matrix = CLVF_MATRIX_BT709;
        p.src_range = frame->color_range == AVCOL_RANGE_JPEG ? CLVF_RANGE_PC : CLVF_RANGE_TV;
        p.dst_range = CLVF_RANGE_TV;
        if (clvf_scale_create(j->device, &p, &j->scale) != CLVF_OK)
            return clvf_fail("planning the scale");
    }
    if ((err = av_frame_make_writable(j->scaled)) < 0)
        return fail("output frame", err);
    describe(frame, &src);
    describe(j->scaled, &dst);
    if (clvf_scale_process(j->scale, &src, &dst) != CLVF_OK)
        return clvf_fail("scaling a frame");
    j->scaled->pts = frame->best_effort_timestamp;
    j->frames++;
    return encode(j, j->scaled);
}

static int decode(Job *j, AVPacket *pkt)
{
    AVFrame *frame = av_frame_alloc();
    int err = avcodec_send_packet(j->dec, pkt);
    while (err >= 0) {
        err = avcodec_receive_frame(j->dec, frame);
        if (err == AVERROR(EAGAIN) || err == AVERROR_EOF) {
            err = 0;
            break;
        }
        if (err < 0 || (err = convert_and_encode(j, frame)) < 0)
            break;
        av_frame_unref(frame);
    }
    av_frame_free(&frame);
    return err;
}

static int open_job(Job *j, const char *in, const char *out, int w, int h)
{
    const AVCodec *dec, *enc;
    int err;

    if ((err = avformat_open_input(&j->in, in, NULL, NULL)) < 0 || (err = avformat_find_stream_info(j->in, NULL)) < 0)
        return fail(in, err);
    if ((j->stream = av_find_best_stream(j->in, AVMEDIA_TYPE_VIDEO, -1, -1, &dec, 0)) < 0)
        return fail("no video stream", j->stream);
    j->dec = avcodec_alloc_context3(dec);
    avcodec_parameters_to_context(j->dec, j->in->streams[j->stream]->codecpar);
    j->dec->pkt_timebase = j->in->streams[j->stream]->time_base;
    if ((err = avcodec_open2(j->dec, dec, NULL)) < 0)
        return fail("opening the decoder", err);

    if (!(enc = avcodec_find_encoder_by_name("libx264")))
        return fail("libx264 is not in this FFmpeg", AVERROR_ENCODER_NOT_FOUND);
    if ((err = avformat_alloc_output_context2(&j->out, NULL, NULL, out)) < 0)
        return fail(out, err);
    j->enc = avcodec_alloc_context3(enc);
    j->enc->width = w, j->enc->height = h;
    j->enc->pix_fmt = AV_PIX_FMT_YUV420P;
    j->enc->colorspace = AVCOL_SPC_BT709, j->enc->color_range = AVCOL_RANGE_MPEG;
    j->enc->time_base = j->in->streams[j->stream]->time_base;
    j->enc->framerate = av_guess_frame_rate(j->in, j->in->streams[j->stream], NULL);
    j->enc->sample_aspect_ratio = (AVRational){ 1, 1 };
    if (j->out->oformat->flags & AVFMT_GLOBALHEADER)
        j->enc->flags |= AV_CODEC_FLAG_GLOBAL_HEADER;
    av_opt_set(j->enc->priv_data, "preset", "veryfast", 0);
    if ((err = avcodec_open2(j->enc, enc, NULL)) < 0)
        return fail("opening libx264", err);
    j->out_stream = avformat_new_stream(j->out, NULL);
    avcodec_parameters_from_context(j->out_stream->codecpar, j->enc);
    j->out_stream->time_base = j->enc->time_base;
    if ((err = avio_open(&j->out->pb, out, AVIO_FLAG_WRITE)) < 0 || (err = avformat_write_header(j->out, NULL)) < 0)
        return fail(out, err);

    j->scaled = av_frame_alloc();
    j->scaled->format = AV_PIX_FMT_YUV420P, j->scaled->width = w, j->scaled->height = h;
    if ((err = av_frame_get_buffer(j->scaled, 0)) < 0)
        return fail("output frame", err);
    return 0;
}

int main(int argc, char **argv)
{
    Job j = { 0 };
    AVPacket *pkt = av_packet_alloc();
    int w, h, err;

    av_log_set_level(AV_LOG_ERROR);
    if (argc < 4 || sscanf(argv[3], "%dx%d", &w, &h) != 2 || w < 2 || h < 2 || (w | h) & 1) {
        fprintf(stderr, "usage: transcode IN OUT WxH [device]   (even sizes)\n");
        return 2;
    }
    if (clvf_device_open(argc > 4 ? argv[4] : NULL, &j.device) != CLVF_OK)
        return clvf_fail("device") ? 1 : 0;
    err = open_job(&j, argv[1], argv[2], w, h);
    while (err >= 0 && av_read_frame(j.in, pkt) >= 0) {
        if (pkt->stream_index == j.stream)
            err = decode(&j, pkt);
        av_packet_unref(pkt);
    }
    if (err >= 0)
        err = decode(&j, NULL); /* drain the decoder */
    if (err >= 0)
        err = encode(&j, NULL); /* and the encoder */
    if (err >= 0)
        err = av_write_trailer(j.out);
    if (err >= 0)
        printf("transcode: %lld frames -> %s (%dx%d H.264) on %s\n", (long long)j.frames, argv[2], w, h,
               clvf_device_name(j.device));

    av_packet_free(&pkt);
    av_frame_free(&j.scaled);
    avcodec_free_context(&j.dec);
    avcodec_free_context(&j.enc);
    avformat_close_input(&j.in);
    if (j.out && j.out->pb)
        avio_closep(&j.out->pb);
    avformat_free_context(j.out);
    clvf_scale_release(j.scale);
    clvf_device_release(j.device);
    return err < 0 ? 1 : 0;
}
