// What the OpenCV wrapper files share (C++ only, not part of the C API).
#ifndef TS_CV_INTERNAL_HPP
#define TS_CV_INTERNAL_HPP

#include <opencv2/core.hpp>

#include <cstdio>

#include "cvwrap.h"

namespace tscv {

// Writes what into err (capacity TSCV_ERR_MAX, may be NULL); returns -1.
inline int fail(char *err, const char *what)
{
    if (err)
        std::snprintf(err, TSCV_ERR_MAX, "%s", what);
    return -1;
}

// A cv::Mat header over a ts_image (no copy).
inline cv::Mat wrap(const ts_image *img)
{
    return cv::Mat(img->h, img->w, img->channels == 1 ? CV_8UC1 : CV_8UC3, img->buf,
                   (size_t)img->stride);
}

} // namespace tscv

#endif
