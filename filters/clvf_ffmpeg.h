/*
 * What differs between the FFmpeg versions the filter glue builds with: 5.1 (Debian 12) and 7.1
 * (Debian 13). 6.1 moved -filter_hw_device behind AVFILTER_FLAG_HWDEVICE; 7.1 dropped internal.h
 * (its declarations are in filters.h) and moved a link's hardware frames context into the
 * internal FilterLink.
 */
#ifndef AVFILTER_CLVF_FFMPEG_H
#define AVFILTER_CLVF_FFMPEG_H

#include "libavutil/mem.h"
#include "avfilter.h"
#include "filters.h"
#include "version.h"

#if LIBAVFILTER_VERSION_INT >= AV_VERSION_INT(10, 4, 100)
#define CLVF_LINK_HW_FRAMES(link) (ff_filter_link(link)->hw_frames_ctx)
#else
#include "internal.h"
#define CLVF_LINK_HW_FRAMES(link) ((link)->hw_frames_ctx)
#endif

#ifdef AVFILTER_FLAG_HWDEVICE
#define CLVF_FLAG_HWDEVICE AVFILTER_FLAG_HWDEVICE
#else
#define CLVF_FLAG_HWDEVICE 0
#endif

#endif
