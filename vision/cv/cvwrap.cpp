// The extern "C" wrapper around OpenCV (see cvwrap.h). Each call is guarded so
// that no C++ exception crosses into C.
#include "cvwrap.h"

#include <opencv2/core.hpp>
#include <opencv2/imgproc.hpp>

#include "cv_internal.hpp"
#include "adaptive.h"
#include "blur.h"
#include "canny.h"
#include "contours.h"
#include "hull.h"
#include "morph.h"
#include "resize_area.h"
#include "warp.h"

#include <cstdio>
#include <cmath>
#include <cstring>
#include <vector>

#ifdef __SSE2__
#include <emmintrin.h>
#endif

namespace {

using tscv::fail;
using tscv::wrap;

// A Mat over dst, allocating dst (w x h x ch) when it is zeroed.
int prepare(ts_image *dst, int w, int h, int ch, cv::Mat *m)
{
    if (!dst->buf && ts_image_alloc(dst, w, h, ch) < 0)
        return -1;
    if (dst->w != w || dst->h != h || dst->channels != ch)
        return -1;
    *m = wrap(dst);
    return 0;
}

/* A header over the caller's points (two ints each, as CV_32SC2), no copy:
 * OpenCV only reads its input arrays. */
cv::Mat points(const ts_ipt *pts, int n)
{
    return cv::Mat(n, 1, CV_32SC2, const_cast<ts_ipt *>(pts));
}

// OpenCV's convex hull of pts, from the points that can be its corners
// (hull.h: the same hull, corner for corner and in the same order; OpenCV
// sorts every point it is given).
void hull_of(const ts_ipt *pts, int n, std::vector<cv::Point> &hull)
{
    std::vector<ts_ipt> cand((size_t)(n > 0 ? n : 1));
    int k = ts_hull_candidates(pts, n, cand.data());
    if (k < 0)
        cv::convexHull(points(pts, n), hull);
    else
        cv::convexHull(points(cand.data(), k), hull);
}

} // namespace

#define GUARD_BEGIN try {
#define GUARD_END                                                                                  \
    }                                                                                              \
    catch (const cv::Exception &e)                                                                 \
    {                                                                                              \
        return fail(err, e.what());                                                                \
    }                                                                                              \
    catch (const std::exception &e)                                                                \
    {                                                                                              \
        return fail(err, e.what());                                                                \
    }

extern "C" {

void tscv_set_threads(int n)
{
    try {
        cv::setNumThreads(n);
    } catch (...) {
    }
}

int tscv_grey(const ts_image *src, ts_image *dst, char *err)
{
    GUARD_BEGIN
    cv::Mat d;
    if (prepare(dst, src->w, src->h, 1, &d) < 0)
        return fail(err, "grey: bad destination");
    if (src->channels == 1)
        wrap(src).copyTo(d);
    else
        cv::cvtColor(wrap(src), d, cv::COLOR_BGR2GRAY);
    return 0;
    GUARD_END
}

int tscv_resize(const ts_image *src, ts_image *dst, int w, int h, char *err)
{
    GUARD_BEGIN
    cv::Mat d;
    if (prepare(dst, w, h, src->channels, &d) < 0)
        return fail(err, "resize: bad destination");
    int interp = (w < src->w) ? cv::INTER_AREA : cv::INTER_LINEAR;
    int own = interp == cv::INTER_AREA ? ts_resize_area(src, dst) : 1; // OpenCV's bytes, faster
    if (own < 0)
        return fail(err, "resize: out of memory");
    if (own > 0)
        cv::resize(wrap(src), d, d.size(), 0, 0, interp);
    return 0;
    GUARD_END
}

int tscv_resize_area_opencv(const ts_image *src, ts_image *dst, char *err)
{
    GUARD_BEGIN
    cv::Mat d;
    if (prepare(dst, dst->w, dst->h, src->channels, &d) < 0)
        return fail(err, "resize: bad destination");
    cv::resize(wrap(src), d, d.size(), 0, 0, cv::INTER_AREA);
    return 0;
    GUARD_END
}

int tscv_blur(const ts_image *src, ts_image *dst, double sigma, char *err)
{
    GUARD_BEGIN
    cv::Mat d;
    if (prepare(dst, src->w, src->h, src->channels, &d) < 0)
        return fail(err, "blur: bad destination");
    /* OpenCV's bytes without its copy of an image blurred in place (test_blur) */
    int own = ts_gauss_blur(src, dst, sigma);
    if (own < 0)
        return fail(err, "blur: out of memory");
    if (own > 0)
        cv::GaussianBlur(wrap(src), d, cv::Size(0, 0), sigma);
    return 0;
    GUARD_END
}

int tscv_blur_opencv(const ts_image *src, ts_image *dst, double sigma, char *err)
{
    GUARD_BEGIN
    cv::Mat d;
    if (prepare(dst, src->w, src->h, src->channels, &d) < 0)
        return fail(err, "blur: bad destination");
    cv::GaussianBlur(wrap(src), d, cv::Size(0, 0), sigma);
    return 0;
    GUARD_END
}

int tscv_otsu(const ts_image *src, ts_image *dst, double *t, char *err)
{
    GUARD_BEGIN
    cv::Mat d;
    if (prepare(dst, src->w, src->h, 1, &d) < 0)
        return fail(err, "otsu: bad destination");
    double v = cv::threshold(wrap(src), d, 0, 255, cv::THRESH_BINARY | cv::THRESH_OTSU);
    if (t)
        *t = v;
    return 0;
    GUARD_END
}

int tscv_adaptive(const ts_image *src, ts_image *dst, int block, double offset, char *err)
{
    GUARD_BEGIN
    cv::Mat d;
    if (prepare(dst, src->w, src->h, 1, &d) < 0)
        return fail(err, "adaptive: bad destination");
    block = block < 3 ? 3 : block | 1; /* OpenCV wants an odd window of 3 or more */
    /* cv::adaptiveThreshold's steps (its mean, its rounding of the offset),
     * with the comparison a vector loop where OpenCV looks each pixel up in a
     * table: src - mean > -ceil(-offset). test_adaptive compares. */
    const int t = -cvCeil(-offset);
    int own = ts_adaptive_mean(src, dst, block, t); /* its bytes by running sums */
    if (own < 0)
        return fail(err, "adaptive: out of memory");
    if (own == 0)
        return 0;
    cv::Mat s = wrap(src), mean = s.data == d.data ? cv::Mat() : d;
    cv::boxFilter(s, mean, s.type(), cv::Size(block, block), cv::Point(-1, -1), true,
                  cv::BORDER_REPLICATE | cv::BORDER_ISOLATED);
    for (int y = 0; y < s.rows; y++) {
        const uint8_t *a = s.ptr<uint8_t>(y), *m = mean.ptr<uint8_t>(y);
        uint8_t *o = d.ptr<uint8_t>(y);
        int x = 0;
#ifdef __SSE2__
        const __m128i tv = _mm_set1_epi16((short)(t < -256 ? -256 : t > 256 ? 256 : t));
        const __m128i zero = _mm_setzero_si128();
        for (; x + 16 <= s.cols; x += 16) {
            const __m128i av = _mm_loadu_si128((const __m128i *)(a + x));
            const __m128i mv = _mm_loadu_si128((const __m128i *)(m + x));
            const __m128i lo = _mm_sub_epi16(_mm_unpacklo_epi8(av, zero), _mm_unpacklo_epi8(mv, zero));
            const __m128i hi = _mm_sub_epi16(_mm_unpackhi_epi8(av, zero), _mm_unpackhi_epi8(mv, zero));
            _mm_storeu_si128((__m128i *)(o + x),
                             _mm_packs_epi16(_mm_cmpgt_epi16(lo, tv), _mm_cmpgt_epi16(hi, tv)));
        }
#endif
        for (; x < s.cols; x++)
            o[x] = a[x] - m[x] > t ? 255 : 0;
    }
    return 0;
    GUARD_END
}

int tscv_adaptive_opencv(const ts_image *src, ts_image *dst, int block, double offset, char *err)
{
    GUARD_BEGIN
    cv::Mat d;
    if (prepare(dst, src->w, src->h, 1, &d) < 0)
        return fail(err, "adaptive: bad destination");
    block = block < 3 ? 3 : block | 1;
    cv::adaptiveThreshold(wrap(src), d, 255, cv::ADAPTIVE_THRESH_MEAN_C, cv::THRESH_BINARY, block,
                          -offset);
    return 0;
    GUARD_END
}

int tscv_morph(const ts_image *src, ts_image *dst, char op, int radius, char *err)
{
    GUARD_BEGIN
    cv::Mat d;
    if (prepare(dst, src->w, src->h, src->channels, &d) < 0)
        return fail(err, "morph: bad destination");
    /* the ellipses morph.h takes, separably: the same bytes (test_morph) */
    if (ts_morph_ellipse(src, dst, op, radius) == 0)
        return 0;
    return tscv_morph_opencv(src, dst, op, radius, err);
    GUARD_END
}

int tscv_morph_opencv(const ts_image *src, ts_image *dst, char op, int radius, char *err)
{
    GUARD_BEGIN
    cv::Mat d;
    if (prepare(dst, src->w, src->h, src->channels, &d) < 0)
        return fail(err, "morph: bad destination");
    cv::Mat k =
        cv::getStructuringElement(cv::MORPH_ELLIPSE, cv::Size(2 * radius + 1, 2 * radius + 1));
    int mop;
    switch (op) {
    case 'e': mop = cv::MORPH_ERODE; break;
    case 'd': mop = cv::MORPH_DILATE; break;
    case 'o': mop = cv::MORPH_OPEN; break;
    case 'c': mop = cv::MORPH_CLOSE; break;
    default: return fail(err, "morph: unknown operation");
    }
    cv::morphologyEx(wrap(src), d, mop, k);
    return 0;
    GUARD_END
}

int tscv_canny(const ts_image *src, ts_image *dst, double lo, double hi, char *err)
{
    GUARD_BEGIN
    cv::Mat d;
    if (prepare(dst, src->w, src->h, 1, &d) < 0)
        return fail(err, "canny: bad destination");
    /* OpenCV's bytes without its per-call gradient images (test_canny) */
    int own = src->channels == 1 ? ts_canny(src, dst, lo, hi) : 1;
    if (own < 0)
        return fail(err, "canny: out of memory");
    if (own > 0)
        cv::Canny(wrap(src), d, lo, hi, 3, true);
    return 0;
    GUARD_END
}

int tscv_canny_opencv(const ts_image *src, ts_image *dst, double lo, double hi, char *err)
{
    GUARD_BEGIN
    cv::Mat d;
    if (prepare(dst, src->w, src->h, 1, &d) < 0)
        return fail(err, "canny: bad destination");
    cv::Canny(wrap(src), d, lo, hi, 3, true);
    return 0;
    GUARD_END
}

int tscv_find_contours(const ts_image *bin, int outer_only, tscv_contours *out, char *err)
{
    /* OpenCV's points and order without its copies (test_contours) */
    int own = ts_find_contours(bin, outer_only, out);
    if (own < 0)
        return fail(err, "contours: out of memory");
    return own > 0 ? tscv_find_contours_opencv(bin, outer_only, out, err) : 0;
}

int tscv_find_contours_opencv(const ts_image *bin, int outer_only, tscv_contours *out, char *err)
{
    std::memset(out, 0, sizeof *out);
    GUARD_BEGIN
    std::vector<std::vector<cv::Point>> cs;
    if (outer_only) {
        cv::findContours(wrap(bin), cs, cv::RETR_EXTERNAL, cv::CHAIN_APPROX_NONE);
    } else { /* two levels: outer boundaries have no parent, holes do */
        std::vector<std::vector<cv::Point>> all;
        std::vector<cv::Vec4i> h;
        cv::findContours(wrap(bin), all, h, cv::RETR_CCOMP, cv::CHAIN_APPROX_NONE);
        for (size_t i = 0; i < all.size(); i++)
            if (h[i][3] < 0)
                cs.push_back(std::move(all[i]));
    }
    size_t total = 0;
    for (auto &c : cs)
        total += c.size();
    out->start = (int *)std::malloc((cs.size() + 1) * sizeof(int));
    out->len = (int *)std::malloc((cs.size() + 1) * sizeof(int));
    out->pts = (ts_ipt *)std::malloc((total + 1) * sizeof(ts_ipt));
    if (!out->start || !out->len || !out->pts) {
        tscv_contours_free(out);
        return fail(err, "contours: out of memory");
    }
    int k = 0;
    for (size_t i = 0; i < cs.size(); i++) {
        out->start[i] = k;
        out->len[i] = (int)cs[i].size();
        for (auto &p : cs[i])
            out->pts[k++] = ts_ipt{p.x, p.y};
    }
    out->n = (int)cs.size();
    return 0;
    GUARD_END
}

void tscv_contours_free(tscv_contours *c)
{
    std::free(c->start);
    std::free(c->len);
    std::free(c->pts);
    std::memset(c, 0, sizeof *c);
}

int tscv_fill_contour(ts_image *img, const ts_ipt *pts, int n, char *err)
{
    GUARD_BEGIN
    std::vector<cv::Mat> v{points(pts, n)};
    cv::fillPoly(wrap(img), v, cv::Scalar(255), cv::LINE_8);
    return 0;
    GUARD_END
}

double tscv_area(const ts_ipt *pts, int n)
{
    double a = 0;
    for (int i = 0, j = n - 1; i < n; j = i++)
        a += (double)pts[j].x * pts[i].y - (double)pts[i].x * pts[j].y;
    return a < 0 ? -a / 2 : a / 2;
}

double tscv_perimeter(const ts_ipt *pts, int n)
{
    try {
        return cv::arcLength(points(pts, n), true);
    } catch (...) {
        return 0;
    }
}

double tscv_hull_area(const ts_ipt *pts, int n)
{
    try {
        std::vector<cv::Point> hull;
        hull_of(pts, n, hull);
        return cv::contourArea(hull);
    } catch (...) {
        return 0;
    }
}

int tscv_hull(const ts_ipt *pts, int n, ts_ipt *out)
{
    try {
        std::vector<cv::Point> hull; // callers hand in ts_hull_candidates already
        cv::convexHull(points(pts, n), hull);
        int k = 0;
        for (auto &p : hull)
            out[k++] = ts_ipt{p.x, p.y};
        return k;
    } catch (...) {
        return 0;
    }
}

int tscv_defects(const ts_ipt *pts, int n, int *deepest, float *depth, int max)
{
    try {
        cv::Mat v = points(pts, n);
        std::vector<int> hull;
        cv::convexHull(v, hull, false, false);
        if (hull.size() < 3)
            return 0;
        std::vector<cv::Vec4i> d;
        cv::convexityDefects(v, hull, d);
        int k = 0;
        for (auto &e : d) {
            if (k >= max)
                break;
            deepest[k] = e[2];
            depth[k++] = (float)e[3] / 256.0f;
        }
        return k;
    } catch (...) {
        return 0; /* self-intersecting or degenerate: no split offered */
    }
}

int tscv_approx(const ts_ipt *pts, int n, double eps, int hull, ts_ipt *out, int max)
{
    try {
        std::vector<cv::Point> h, a;
        if (hull)
            hull_of(pts, n, h);
        cv::approxPolyDP(hull ? cv::Mat(h) : points(pts, n), a, eps, true);
        int k = 0;
        for (auto &p : a) {
            if (k >= max)
                break;
            out[k++] = ts_ipt{p.x, p.y};
        }
        return k;
    } catch (...) {
        return 0;
    }
}

void tscv_min_rect(const ts_ipt *pts, int n, ts_pt corners[4])
{
    try {
        cv::RotatedRect r = cv::minAreaRect(points(pts, n));
        cv::Point2f c[4];
        r.points(c);
        for (int i = 0; i < 4; i++)
            corners[i] = ts_pt{c[i].x, c[i].y};
    } catch (...) {
        std::memset(corners, 0, 4 * sizeof(ts_pt));
    }
}

int tscv_corner_subpix(const ts_image *grey, ts_pt *pts, int n, int win, char *err)
{
    GUARD_BEGIN
    std::vector<cv::Point2f> v((size_t)n);
    for (int i = 0; i < n; i++)
        v[(size_t)i] = cv::Point2f(pts[i].x, pts[i].y);
    cv::cornerSubPix(wrap(grey), v, cv::Size(win, win), cv::Size(-1, -1),
                     cv::TermCriteria(cv::TermCriteria::EPS + cv::TermCriteria::COUNT, 20, 0.05));
    for (int i = 0; i < n; i++)
        pts[i] = ts_pt{v[(size_t)i].x, v[(size_t)i].y};
    return 0;
    GUARD_END
}

int tscv_warp_quad(const ts_image *src, const ts_pt q[4], ts_image *dst, int w, int h, char *err)
{
    GUARD_BEGIN
    cv::Mat d;
    if (prepare(dst, w, h, src->channels, &d) < 0)
        return fail(err, "warp: bad destination");
    /* The least-squares affine map of dst's corners onto q leaves each corner
     * off by a quarter of q's departure from a parallelogram. When that is
     * under 1.5 dst pixels, the affine warp (a third faster: no division per
     * pixel) does the job. Shrinking by 1.3 to 2.2 times, the nearest source
     * pixel serves as well as a blend of four (a blend smooths nothing at
     * that scale) at a third of the cost; more than that, it would alias. */
    double ex = (q[0].x - q[1].x + q[2].x - q[3].x) / 4, ey = (q[0].y - q[1].y + q[2].y - q[3].y) / 4;
    double top = std::hypot(q[1].x - q[0].x, q[1].y - q[0].y);
    double bottom = std::hypot(q[2].x - q[3].x, q[2].y - q[3].y);
    double shrink = (top + bottom) / (2.0 * w) + 1e-9;
    double off = std::hypot(ex, ey) / shrink; /* in dst pixels */
    int interp = shrink >= 1.3 && shrink <= 2.2 ? cv::INTER_NEAREST : cv::INTER_LINEAR;
    if (off < 1.5) {
        double ax = ((q[1].x + q[2].x) - (q[0].x + q[3].x)) / (2.0 * w);
        double ay = ((q[1].y + q[2].y) - (q[0].y + q[3].y)) / (2.0 * w);
        double bx = ((q[2].x + q[3].x) - (q[0].x + q[1].x)) / (2.0 * h);
        double by = ((q[2].y + q[3].y) - (q[0].y + q[1].y)) / (2.0 * h);
        double cx = (q[0].x + q[1].x + q[2].x + q[3].x) / 4 - ax * w / 2 - bx * h / 2;
        double cy = (q[0].y + q[1].y + q[2].y + q[3].y) / 4 - ay * w / 2 - by * h / 2;
        cv::Matx23d m(ax, bx, cx, ay, by, cy);
        /* OpenCV has no vector path for 3 channels here: the same bytes, faster */
        if (interp == cv::INTER_LINEAR && src->channels == 3 &&
            ts_warp_affine_linear(src, m.val, dst) == 0)
            return 0;
        if (interp == cv::INTER_NEAREST && ts_warp_affine_nearest(src, m.val, dst) == 0)
            return 0;
        cv::warpAffine(wrap(src), d, m, d.size(), interp | cv::WARP_INVERSE_MAP,
                       cv::BORDER_REPLICATE);
        return 0;
    }
    cv::Point2f s[4], t[4] = {{0, 0}, {(float)w, 0}, {(float)w, (float)h}, {0, (float)h}};
    for (int i = 0; i < 4; i++)
        s[i] = cv::Point2f(q[i].x, q[i].y);
    cv::Mat m = cv::getPerspectiveTransform(s, t);
    if (src->channels == 3) { /* as warpPerspective: its inverse, by LU */
        cv::Mat inv;
        cv::invert(m, inv, cv::DECOMP_LU);
        if (inv.type() == CV_64F && inv.isContinuous() &&
            ts_warp_perspective_linear(src, inv.ptr<double>(), dst) == 0)
            return 0;
    }
    cv::warpPerspective(wrap(src), d, m, d.size(), cv::INTER_LINEAR, cv::BORDER_REPLICATE);
    return 0;
    GUARD_END
}

int tscv_warp_affine(const ts_image *src, const double m[6], ts_image *dst, char *err)
{
    GUARD_BEGIN
    cv::Mat d;
    if (prepare(dst, dst->w, dst->h, src->channels, &d) < 0)
        return fail(err, "warp: bad destination");
    cv::Matx23d mm(m[0], m[1], m[2], m[3], m[4], m[5]);
    cv::warpAffine(wrap(src), d, mm, d.size(), cv::INTER_LINEAR | cv::WARP_INVERSE_MAP,
                   cv::BORDER_REPLICATE);
    return 0;
    GUARD_END
}

int tscv_warp_affine_nearest(const ts_image *src, const double m[6], ts_image *dst, char *err)
{
    GUARD_BEGIN
    cv::Mat d;
    if (prepare(dst, dst->w, dst->h, src->channels, &d) < 0)
        return fail(err, "warp: bad destination");
    cv::Matx23d mm(m[0], m[1], m[2], m[3], m[4], m[5]);
    cv::warpAffine(wrap(src), d, mm, d.size(), cv::INTER_NEAREST | cv::WARP_INVERSE_MAP,
                   cv::BORDER_REPLICATE);
    return 0;
    GUARD_END
}

int tscv_warp_perspective(const ts_image *src, const double m[9], ts_image *dst, char *err)
{
    GUARD_BEGIN
    cv::Mat d;
    if (prepare(dst, dst->w, dst->h, src->channels, &d) < 0)
        return fail(err, "warp: bad destination");
    cv::Matx33d mm(m[0], m[1], m[2], m[3], m[4], m[5], m[6], m[7], m[8]);
    cv::warpPerspective(wrap(src), d, mm, d.size(), cv::INTER_LINEAR | cv::WARP_INVERSE_MAP,
                        cv::BORDER_REPLICATE);
    return 0;
    GUARD_END
}

int tscv_components(const ts_image *bin, int *labels, tscv_blob *blobs, int max, char *err)
{
    GUARD_BEGIN
    cv::Mat lab(bin->h, bin->w, CV_32S, labels), stats, cent;
    int n = cv::connectedComponentsWithStats(wrap(bin), lab, stats, cent, 8, CV_32S);
    int k = 0;
    for (int i = 1; i < n && k < max; i++, k++) {
        blobs[k].x = stats.at<int>(i, cv::CC_STAT_LEFT);
        blobs[k].y = stats.at<int>(i, cv::CC_STAT_TOP);
        blobs[k].w = stats.at<int>(i, cv::CC_STAT_WIDTH);
        blobs[k].h = stats.at<int>(i, cv::CC_STAT_HEIGHT);
        blobs[k].area = stats.at<int>(i, cv::CC_STAT_AREA);
        blobs[k].cx = (float)cent.at<double>(i, 0);
        blobs[k].cy = (float)cent.at<double>(i, 1);
    }
    return k;
    GUARD_END
}

} // extern "C"
