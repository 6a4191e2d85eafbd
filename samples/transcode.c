/* A minimal transcoder on the C API without libavfilter: libavformat demuxes, libavcodec decodes,
 * a clvf chain filters (any chain ffmpeg -vf takes with the clvf filters, or a chain preset), libx264
 * encodes, and libavformat muxes.
 *   transcode IN OUT CHAIN [device]
 * e.g. CHAIN = "denoise_clvf=preset=light,scale_clvf=w=1280:h=-2:format=yuv420p:matrix=bt709" or
 * "web-720p". Decoded frames must be YUV420P, NV12, P010 or YUV444P in system memory. */
#include <stdio.h>
#include <stdlib.h>

#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavutil/fifo.h>
#include <libavutil/opt.h>
#include <libavutil/pixdesc.h>

#include <clvf/clvf.h>

typedef struct Job {
    AVFormatContext *in, *out;
    AVCodecContext *dec, *enc;
    AVStream *out_stream;
    int stream;
    const char *chain_text, *out_name;
    clvf_device *device;
    clvf_chain *chain;
    AVFrame *filtered;
    AVFifo *pts; /* of the frames sent to the chain and not yet out of it (temporal denoise holds some) */
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

static const struct { enum AVPixelFormat av; clvf_pixel_format clvf; } formats[] = {
    { AV_PIX_FMT_YUV420P, CLVF_PIX_YUV420P }, { AV_PIX_FMT_NV12, CLVF_PIX_NV12 },
    { AV_PIX_FMT_P010LE, CLVF_PIX_P010 },     { AV_PIX_FMT_YUV444P, CLVF_PIX_YUV444P },
};

static clvf_pixel_format clvf_format(enum AVPixelFormat f)
{
    for (size_t i = 0; i < sizeof(formats) / sizeof(formats[0]); i++)
        if (formats[i].av == f)
            return formats[i].clvf;
    return 0;
}

static enum AVPixelFormat av_format(clvf_pixel_format f)
{
    for (size_t i = 0; i < sizeof(formats) / sizeof(formats[0]); i++)
        if (formats[i].clvf == f)
            return formats[i].av;
    return AV_PIX_FMT_NONE;
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

/* The stream a decoded frame belongs to, as clvf describes it (colour tags clvf knows, else 0:
 * untagged). */
static clvf_stream describe_stream(const AVFrame *f)
{
    clvf_stream s = { CLVF_API_VERSION, f->width, f->height, clvf_format(f->format) };
    if (f->colorspace == AVCOL_SPC_BT709 || f->colorspace == AVCOL_SPC_BT470BG || f->colorspace == AVCOL_SPC_SMPTE170M ||
        f->colorspace == AVCOL_SPC_SMPTE240M || f->colorspace == AVCOL_SPC_BT2020_NCL)
        s.matrix = (clvf_matrix)f->colorspace; /* the same H.273 numbers */
    s.range = f->color_range == AVCOL_RANGE_JPEG ? CLVF_RANGE_PC : f->color_range == AVCOL_RANGE_MPEG ? CLVF_RANGE_TV : 0;
    s.chroma_location = f->chroma_location == AVCHROMA_LOC_CENTER  ? CLVF_CHROMA_CENTER
                        : f->chroma_location == AVCHROMA_LOC_TOPLEFT ? CLVF_CHROMA_TOPLEFT
                        : f->chroma_location == AVCHROMA_LOC_LEFT    ? CLVF_CHROMA_LEFT
                                                                     : 0;
    s.sar_num = f->sample_aspect_ratio.num, s.sar_den = f->sample_aspect_ratio.den;
    return s;
}

/* The encoder and the output file, for what the chain outputs. */
static int open_output(Job *j, const clvf_stream *o)
{
    const AVCodec *enc = avcodec_find_encoder_by_name("libx264");
    int err;

    if (!enc)
        return fail("libx264 is not in this FFmpeg", AVERROR_ENCODER_NOT_FOUND);
    if (av_format(o->format) == AV_PIX_FMT_NONE) {
        fprintf(stderr, "transcode: the chain outputs a format the encoder does not take; end it with "
                        "format=yuv420p, nv12, p010le or yuv444p\n");
        return AVERROR(EINVAL);
    }
    if ((err = avformat_alloc_output_context2(&j->out, NULL, NULL, j->out_name)) < 0)
        return fail(j->out_name, err);
    j->enc = avcodec_alloc_context3(enc);
    j->enc->width = o->width, j->enc->height = o->height;
    j->enc->pix_fmt = av_format(o->format);
    j->enc->colorspace = o->matrix ? (enum AVColorSpace)o->matrix : AVCOL_SPC_UNSPECIFIED;
    j->enc->color_range = o->range == CLVF_RANGE_PC ? AVCOL_RANGE_JPEG : o->range ? AVCOL_RANGE_MPEG : AVCOL_RANGE_UNSPECIFIED;
    j->enc->time_base = j->in->streams[j->stream]->time_base;
    j->enc->framerate = av_guess_frame_rate(j->in, j->in->streams[j->stream], NULL);
    j->enc->sample_aspect_ratio = o->sar_num ? (AVRational){ o->sar_num, o->sar_den } : (AVRational){ 1, 1 };
    if (j->out->oformat->flags & AVFMT_GLOBALHEADER)
        j->enc->flags |= AV_CODEC_FLAG_GLOBAL_HEADER;
    av_opt_set(j->enc->priv_data, "preset", "veryfast", 0);
    if ((err = avcodec_open2(j->enc, enc, NULL)) < 0)
        return fail("opening libx264", err);
    j->out_stream = avformat_new_stream(j->out, NULL);
    avcodec_parameters_from_context(j->out_stream->codecpar, j->enc);
    j->out_stream->time_base = j->enc->time_base;
    if ((err = avio_open(&j->out->pb, j->out_name, AVIO_FLAG_WRITE)) < 0 || (err = avformat_write_header(j->out, NULL)) < 0)
        return fail(j->out_name, err);
    j->filtered = av_frame_alloc();
    j->filtered->format = j->enc->pix_fmt, j->filtered->width = o->width, j->filtered->height = o->height;
    if ((err = av_frame_get_buffer(j->filtered, 0)) < 0)
        return fail("output frame", err);
    return 0;
}

/* Sends a frame (NULL: the end) through the chain, planned at the first frame from its format,
 * size and tags, and encodes what comes out. */
static int filter_and_encode(Job *j, AVFrame *frame)
{
    clvf_frame src, dst;
    int got = 0, err;

    if (!j->chain) {
        clvf_stream in, out;
        if (!frame)
            return 0; /* no frame at all */
        in = describe_stream(frame);
        if (!in.format) {
            fprintf(stderr, "transcode: decoded frames are %s; allowed: yuv420p, nv12, p010le, yuv444p\n",
                    av_get_pix_fmt_name(frame->format));
            return AVERROR(ENOSYS);
        }
        if (clvf_chain_create(j->device, j->chain_text, &in, CLVF_STORAGE_HOST, CLVF_STORAGE_HOST, &j->chain) != CLVF_OK)
            return clvf_fail("planning the chain");
        if (clvf_chain_output(j->chain, &out) != CLVF_OK)
            return clvf_fail("the chain's output");
        if ((err = open_output(j, &out)) < 0)
            return err;
    }
    if (frame) {
        int64_t pts = frame->best_effort_timestamp;
        if ((err = av_fifo_write(j->pts, &pts, 1)) < 0)
            return fail("timestamps", err);
        describe(frame, &src);
    }
    do {
        if ((err = av_frame_make_writable(j->filtered)) < 0)
            return fail("output frame", err);
        describe(j->filtered, &dst);
        if (clvf_chain_process(j->chain, frame ? &src : NULL, &dst, &got) != CLVF_OK)
            return clvf_fail("filtering a frame");
        if (got) {
            av_fifo_read(j->pts, &j->filtered->pts, 1);
            j->frames++;
            if ((err = encode(j, j->filtered)) < 0)
                return err;
        }
    } while (!frame && got); /* at the end, until the chain has given every frame */
    return 0;
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
        if (err < 0 || (err = filter_and_encode(j, frame)) < 0)
            break;
        av_frame_unref(frame);
    }
    av_frame_free(&frame);
    return err;
}

static int open_input(Job *j, const char *in)
{
    const AVCodec *dec;
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
    if (!(j->pts = av_fifo_alloc2(8, sizeof(int64_t), AV_FIFO_FLAG_AUTO_GROW)))
        return fail("timestamps", AVERROR(ENOMEM));
    return 0;
}

int main(int argc, char **argv)
{
    Job j = { 0 };
    AVPacket *pkt = av_packet_alloc();
    int err;

    av_log_set_level(AV_LOG_ERROR);
    if (argc < 4) {
        fprintf(stderr, "usage: transcode IN OUT CHAIN [device]   (CHAIN: as ffmpeg -vf with clvf filters, or a "
                        "chain preset: %s)\n", clvf_preset_names("chains"));
        return 2;
    }
    j.chain_text = argv[3], j.out_name = argv[2];
    if (clvf_device_open(argc > 4 ? argv[4] : NULL, &j.device) != CLVF_OK)
        return clvf_fail("device") ? 1 : 0;
    err = open_input(&j, argv[1]);
    while (err >= 0 && av_read_frame(j.in, pkt) >= 0) {
        if (pkt->stream_index == j.stream)
            err = decode(&j, pkt);
        av_packet_unref(pkt);
    }
    if (err >= 0)
        err = decode(&j, NULL); /* drain the decoder */
    if (err >= 0)
        err = filter_and_encode(&j, NULL); /* the chain */
    if (err >= 0 && j.enc)
        err = encode(&j, NULL); /* and the encoder */
    if (err >= 0 && j.out)
        err = av_write_trailer(j.out);
    if (err >= 0)
        printf("transcode: %lld frames -> %s (%dx%d H.264) on %s\n", (long long)j.frames, argv[2],
               j.enc ? j.enc->width : 0, j.enc ? j.enc->height : 0, clvf_device_name(j.device));

    av_packet_free(&pkt);
    av_frame_free(&j.filtered);
    av_fifo_freep2(&j.pts);
    avcodec_free_context(&j.dec);
    avcodec_free_context(&j.enc);
    avformat_close_input(&j.in);
    if (j.out && j.out->pb)
        avio_closep(&j.out->pb);
    avformat_free_context(j.out);
    clvf_chain_release(j.chain);
    clvf_device_release(j.device);
    return err < 0 ? 1 : 0;
}
