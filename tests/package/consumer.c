/* A program built against an installed clvf (find_package(clvf) or pkg-config): converts a mid
 * grey NV12 frame to RGBA on the default device and checks the result. */
#include <clvf/clvf.h>
#include <stdio.h>
#include <string.h>

int main(void)
{
    enum { W = 64, H = 48 };
    static unsigned char nv12[W * H * 3 / 2], rgba[W * H * 4];
    clvf_device *dev = NULL;
    clvf_colorspace *op = NULL;
    clvf_colorspace_params p;
    clvf_frame src = { CLVF_STORAGE_HOST }, dst = { CLVF_STORAGE_HOST };

    if (clvf_device_open(NULL, &dev) != CLVF_OK) {
        fprintf(stderr, "consumer: %s\n", clvf_last_error());
        return 1;
    }
    clvf_colorspace_params_default(&p);
    p.width = W, p.height = H, p.dst_format = CLVF_PIX_RGBA, p.dst_range = CLVF_RANGE_PC;
    if (clvf_colorspace_create(dev, &p, &op) != CLVF_OK) {
        fprintf(stderr, "consumer: %s\n", clvf_last_error());
        return 1;
    }
    memset(nv12, 126, W * H);         /* Y 126 (tv) is R'G'B' 128 */
    memset(nv12 + W * H, 128, W * H / 2);
    src.planes[0].data = nv12, src.planes[0].pitch = W;
    src.planes[1].data = nv12 + W * H, src.planes[1].pitch = W;
    dst.planes[0].data = rgba, dst.planes[0].pitch = W * 4;
    if (clvf_colorspace_process(op, &src, &dst) != CLVF_OK) {
        fprintf(stderr, "consumer: %s\n", clvf_last_error());
        return 1;
    }
    for (int i = 0; i < W * H * 4; i++)
        if (rgba[i] != (i % 4 == 3 ? 255 : 128)) {
            fprintf(stderr, "consumer: byte %d is %d\n", i, rgba[i]);
            return 1;
        }
    printf("consumer: %s converted NV12 to RGBA through the installed clvf\n", clvf_device_name(dev));
    clvf_colorspace_release(op);
    clvf_device_release(dev);
    return 0;
}
