// Homographies, compositing and optics for the renderer (see cvrender.h).
#include "cvrender.h"

#include <opencv2/core.hpp>
#include <opencv2/imgproc.hpp>

#include "cv_internal.hpp"

#include <algorithm>
#include <cmath>

using tscv::fail;
using tscv::wrap;

namespace
{

cv::Mat to_mat(const double h[9])
{
    cv::Mat m(3, 3, CV_64F);
    for (int i = 0; i < 9; i++)
        m.at<double>(i / 3, i % 3) = h[i];
    return m;
}

} // namespace

extern "C" {

int tscv_homography(const ts_pt src[4], const ts_pt dst[4], double h[9], char *err)
{
    try {
        cv::Point2f s[4], d[4];
        for (int i = 0; i < 4; i++) {
            s[i] = cv::Point2f(src[i].x, src[i].y);
            d[i] = cv::Point2f(dst[i].x, dst[i].y);
        }
        cv::Mat m = cv::getPerspectiveTransform(s, d);
        for (int i = 0; i < 9; i++)
            h[i] = m.at<double>(i / 3, i % 3);
        return 0;
    } catch (const cv::Exception &e) {
        return fail(err, e.what());
    }
}

int tscv_warp_homography(const ts_image *src, const double h[9], ts_image *dst, int w, int h_px,
                         char *err)
{
    try {
        if (!dst->buf && ts_image_alloc(dst, w, h_px, src->channels) < 0)
            return fail(err, "warp: out of memory");
        if (dst->w != w || dst->h != h_px || dst->channels != src->channels)
            return fail(err, "warp: bad destination");
        cv::Mat d = wrap(dst);
        cv::warpPerspective(wrap(src), d, to_mat(h), d.size(), cv::INTER_LINEAR,
                            cv::BORDER_REFLECT_101);
        return 0;
    } catch (const cv::Exception &e) {
        return fail(err, e.what());
    }
}

int tscv_composite_quad(ts_image *dst, const ts_image *face, const ts_image *alpha,
                        const ts_pt q[4], uint8_t *ids, uint8_t id, char *err)
{
    try {
        float x0 = q[0].x, x1 = q[0].x, y0 = q[0].y, y1 = q[0].y;
        for (int i = 1; i < 4; i++) {
            x0 = std::min(x0, q[i].x);
            x1 = std::max(x1, q[i].x);
            y0 = std::min(y0, q[i].y);
            y1 = std::max(y1, q[i].y);
        }
        cv::Rect box((int)std::floor(x0) - 1, (int)std::floor(y0) - 1, (int)std::ceil(x1 - x0) + 3,
                     (int)std::ceil(y1 - y0) + 3);
        box &= cv::Rect(0, 0, dst->w, dst->h);
        if (box.area() <= 0)
            return 0;
        float fw = (float)face->w, fh = (float)face->h;
        cv::Point2f s[4] = {{0, 0}, {fw, 0}, {fw, fh}, {0, fh}}, d[4];
        for (int i = 0; i < 4; i++)
            d[i] = cv::Point2f(q[i].x - (float)box.x, q[i].y - (float)box.y);
        cv::Mat m = cv::getPerspectiveTransform(s, d);
        cv::Mat warped, a;
        cv::warpPerspective(wrap(face), warped, m, box.size(), cv::INTER_LINEAR,
                            cv::BORDER_CONSTANT);
        cv::Mat alpha_src =
            alpha ? wrap(alpha) : cv::Mat(face->h, face->w, CV_8UC1, cv::Scalar(255));
        cv::warpPerspective(alpha_src, a, m, box.size(), cv::INTER_LINEAR, cv::BORDER_CONSTANT);
        cv::Mat roi = wrap(dst)(box);
        for (int y = 0; y < box.height; y++) {
            uint8_t *o = roi.ptr<uint8_t>(y);
            const uint8_t *w = warped.ptr<uint8_t>(y), *al = a.ptr<uint8_t>(y);
            for (int x = 0; x < box.width; x++) {
                int k = al[x];
                if (!k)
                    continue;
                for (int c = 0; c < 3; c++)
                    o[3 * x + c] =
                        (uint8_t)((w[3 * x + c] * k + o[3 * x + c] * (255 - k) + 127) / 255);
                if (ids && k > 127)
                    ids[(size_t)(box.y + y) * (size_t)dst->w + (size_t)(box.x + x)] = id;
            }
        }
        return 0;
    } catch (const cv::Exception &e) {
        return fail(err, e.what());
    }
}

int tscv_lens_distort(ts_image *img, double k1, double k2, char *err)
{
    try {
        cv::Mat mx(img->h, img->w, CV_32F), my(img->h, img->w, CV_32F);
        const double cx = img->w / 2.0, cy = img->h / 2.0, norm = 1.0 / std::max(cx, cy);
        const double rc2 = (cx * cx + cy * cy) * norm * norm, gc = 1 + k1 * rc2 + k2 * rc2 * rc2;
        for (int y = 0; y < img->h; y++) {
            float *px = mx.ptr<float>(y), *py = my.ptr<float>(y);
            for (int x = 0; x < img->w; x++) {
                double dx = (x - cx) * norm, dy = (y - cy) * norm, r2 = dx * dx + dy * dy;
                double f = (1 + k1 * r2 + k2 * r2 * r2) / gc;
                px[x] = (float)(cx + (x - cx) * f);
                py[x] = (float)(cy + (y - cy) * f);
            }
        }
        cv::Mat src = wrap(img).clone(), d = wrap(img);
        cv::remap(src, d, mx, my, cv::INTER_LINEAR, cv::BORDER_REFLECT_101);
        return 0;
    } catch (const cv::Exception &e) {
        return fail(err, e.what());
    }
}

int tscv_motion_blur(ts_image *img, double len_px, double angle, char *err)
{
    try {
        int n = (int)std::ceil(len_px) | 1;
        if (n < 3)
            return 0;
        cv::Mat k = cv::Mat::zeros(n, n, CV_32F);
        double c = std::cos(angle), s = std::sin(angle), r = (n - 1) / 2.0;
        cv::line(k, cv::Point(cvRound(r - c * r), cvRound(r - s * r)),
                 cv::Point(cvRound(r + c * r), cvRound(r + s * r)), cv::Scalar(1.0), 1,
                 cv::LINE_AA);
        k /= cv::sum(k)[0];
        cv::Mat m = wrap(img);
        cv::filter2D(m, m, -1, k, cv::Point(-1, -1), 0, cv::BORDER_REFLECT_101);
        return 0;
    } catch (const cv::Exception &e) {
        return fail(err, e.what());
    }
}

int tscv_unsharp(ts_image *img, double sigma, double amount, char *err)
{
    try {
        cv::Mat m = wrap(img), b;
        cv::GaussianBlur(m, b, cv::Size(0, 0), sigma);
        cv::addWeighted(m, 1.0 + amount, b, -amount, 0.0, m);
        return 0;
    } catch (const cv::Exception &e) {
        return fail(err, e.what());
    }
}

} // extern "C"
