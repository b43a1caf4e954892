// Drawing primitives (see cvdraw.h).
#include "cvdraw.h"

#include <opencv2/core.hpp>
#include <opencv2/imgproc.hpp>

#include "cv_internal.hpp"

#include <cstdio>
#include <vector>

namespace {

using tscv::fail;
using tscv::wrap;

const int SHIFT = 4; // subpixel bits for drawing

std::vector<cv::Point> fixed(const ts_pt *pts, int n)
{
    std::vector<cv::Point> v((size_t)n);
    for (int i = 0; i < n; i++)
        v[(size_t)i] = cv::Point(cvRound(pts[i].x * (1 << SHIFT)), cvRound(pts[i].y * (1 << SHIFT)));
    return v;
}

cv::Scalar col(ts_bgr c)
{
    return cv::Scalar(c.b, c.g, c.r);
}

int hershey(tscv_font f)
{
    switch (f) {
    case TSCV_FONT_DUPLEX: return cv::FONT_HERSHEY_DUPLEX;
    case TSCV_FONT_COMPLEX: return cv::FONT_HERSHEY_COMPLEX;
    case TSCV_FONT_TRIPLEX: return cv::FONT_HERSHEY_TRIPLEX;
    case TSCV_FONT_SCRIPT: return cv::FONT_HERSHEY_SCRIPT_COMPLEX;
    case TSCV_FONT_SIMPLEX_ITALIC: return cv::FONT_HERSHEY_SIMPLEX | cv::FONT_ITALIC;
    case TSCV_FONT_TRIPLEX_ITALIC: return cv::FONT_HERSHEY_TRIPLEX | cv::FONT_ITALIC;
    default: return cv::FONT_HERSHEY_SIMPLEX;
    }
}

} // namespace

extern "C" {

namespace {

int polyline(ts_image *img, const ts_pt *pts, int n, int closed, ts_bgr c, int thickness,
             int line_type, char *err)
{
    try {
        std::vector<std::vector<cv::Point>> v{fixed(pts, n)};
        cv::polylines(wrap(img), v, closed != 0, col(c), thickness, line_type, SHIFT);
        return 0;
    } catch (const cv::Exception &e) {
        return fail(err, e.what());
    }
}

} // namespace

int tscv_polyline(ts_image *img, const ts_pt *pts, int n, int closed, ts_bgr c, int thickness,
                  char *err)
{
    return polyline(img, pts, n, closed, c, thickness, cv::LINE_AA, err);
}

int tscv_polyline_plain(ts_image *img, const ts_pt *pts, int n, int closed, ts_bgr c,
                        int thickness, char *err)
{
    return polyline(img, pts, n, closed, c, thickness, cv::LINE_8, err);
}

int tscv_fill_poly(ts_image *img, const ts_pt *pts, int n, ts_bgr c, char *err)
{
    try {
        std::vector<std::vector<cv::Point>> v{fixed(pts, n)};
        cv::fillPoly(wrap(img), v, col(c), cv::LINE_AA, SHIFT);
        return 0;
    } catch (const cv::Exception &e) {
        return fail(err, e.what());
    }
}

int tscv_text(ts_image *img, float x, float y, const char *s, double scale, ts_bgr c,
              int thickness, char *err)
{
    return tscv_text_font(img, x, y, s, TSCV_FONT_SIMPLEX, scale, c, thickness, err);
}

void tscv_text_size(const char *s, double scale, int thickness, int *w, int *h)
{
    tscv_text_font_size(s, TSCV_FONT_SIMPLEX, scale, thickness, w, h);
}

int tscv_fill_rect(ts_image *img, int x, int y, int w, int h, ts_bgr c, double alpha, char *err)
{
    try {
        cv::Mat m = wrap(img);
        cv::Rect r = cv::Rect(x, y, w, h) & cv::Rect(0, 0, m.cols, m.rows);
        if (r.area() <= 0)
            return 0;
        cv::Mat roi = m(r);
        cv::Mat fill(roi.size(), roi.type(), col(c));
        cv::addWeighted(fill, alpha, roi, 1.0 - alpha, 0.0, roi);
        return 0;
    } catch (const cv::Exception &e) {
        return fail(err, e.what());
    }
}

int tscv_circle(ts_image *img, float cx, float cy, float r, ts_bgr c, int thickness, char *err)
{
    try {
        cv::circle(wrap(img), cv::Point(cvRound(cx * (1 << SHIFT)), cvRound(cy * (1 << SHIFT))),
                   cvRound(r * (1 << SHIFT)), col(c), thickness < 0 ? cv::FILLED : thickness,
                   cv::LINE_AA, SHIFT);
        return 0;
    } catch (const cv::Exception &e) {
        return fail(err, e.what());
    }
}

int tscv_text_font(ts_image *img, float x, float y, const char *s, tscv_font font, double scale,
                   ts_bgr c, int thickness, char *err)
{
    try {
        cv::putText(wrap(img), s, cv::Point(cvRound(x), cvRound(y)), hershey(font), scale, col(c),
                    thickness, cv::LINE_AA);
        return 0;
    } catch (const cv::Exception &e) {
        return fail(err, e.what());
    }
}

void tscv_text_font_size(const char *s, tscv_font font, double scale, int thickness, int *w,
                         int *h)
{
    int base = 0;
    cv::Size sz = cv::getTextSize(s, hershey(font), scale, thickness, &base);
    *w = sz.width;
    *h = sz.height;
}

} // extern "C"
