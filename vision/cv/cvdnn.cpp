// Trained classifiers through OpenCV's dnn module (see cvdnn.h).
#include "cvdnn.h"

#include <opencv2/core.hpp>
#include <opencv2/dnn.hpp>
#include <opencv2/imgproc.hpp>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "cv_internal.hpp"
extern "C" {
#include "../imageio.h"
#include "../resize_area.h"
}

struct tscv_net {
    tscv_net_info info;
    cv::dnn::Net net;
    std::vector<cv::String> out_names;
    cv::Mat blob;              // the last run's input (kept: no allocation per run)
    cv::Mat small;             // one image at the input size
    cv::Mat scaled;            // and in floats, its channels interleaved
    std::vector<cv::Mat> outs; // the last run's outputs
};

namespace {

// One header line from [*pos, len): copies it (without '\n') into line.
bool next_line(const unsigned char *d, size_t len, size_t *pos, char *line, size_t cap)
{
    size_t i = *pos, k = 0;
    while (i < len && d[i] != '\n') {
        if (k + 1 >= cap)
            return false;
        line[k++] = (char)d[i++];
    }
    if (i >= len)
        return false;
    line[k] = 0;
    *pos = i + 1;
    return true;
}

} // namespace

extern "C" tscv_net *tscv_net_parse(const unsigned char *data, size_t len, char *err,
                                    size_t errlen)
{
    tscv_net_info info;
    std::memset(&info, 0, sizeof info);
    size_t pos = 0;
    char line[256];
    int lineno = 0;
    long onnx = -1;
    while (onnx < 0) {
        lineno++;
        if (!next_line(data, len, &pos, line, sizeof line)) {
            std::snprintf(err, errlen, "header line %d: missing or too long", lineno);
            return nullptr;
        }
        char word[32], a[65], b[65];
        int x, y, z;
        if (lineno == 1) {
            if (std::strcmp(line, "tsnet 1") != 0) {
                std::snprintf(err, errlen, "not a tsnet 1 model (first line must be 'tsnet 1')");
                return nullptr;
            }
        } else if (std::sscanf(line, "name %63s", info.name) == 1) {
        } else if (std::sscanf(line, "input %d %d %d", &x, &y, &z) == 3) {
            if (x < 4 || y < 4 || x > 1024 || y > 1024 || (z != 1 && z != 3)) {
                std::snprintf(err, errlen, "header line %d: bad input size", lineno);
                return nullptr;
            }
            info.in_w = x, info.in_h = y, info.in_c = z;
        } else if (std::sscanf(line, "output %31s %d %64s", a, &x, b) >= 2) {
            if (info.noutputs == TSCV_NET_MAX_OUTPUTS || x < 2 || x > TSCV_NET_MAX_CLASSES) {
                std::snprintf(err, errlen, "header line %d: bad output", lineno);
                return nullptr;
            }
            tscv_net_output *o = &info.out[info.noutputs++];
            std::snprintf(o->name, sizeof o->name, "%.31s", a);
            o->nclass = x;
            if (std::sscanf(line, "output %*s %*d %64s", b) == 1) {
                if ((int)std::strlen(b) != x) {
                    std::snprintf(err, errlen, "header line %d: %d letters for %d classes",
                                  lineno, (int)std::strlen(b), x);
                    return nullptr;
                }
                std::snprintf(o->letters, sizeof o->letters, "%s", b);
            }
        } else if (std::sscanf(line, "onnx %ld", &onnx) == 1) {
            if (onnx <= 0 || (size_t)onnx != len - pos) {
                std::snprintf(err, errlen, "header says %ld ONNX bytes, file holds %zu", onnx,
                              len - pos);
                return nullptr;
            }
        } else if (std::sscanf(line, "%31s", word) != 1 || word[0] != '#') {
            std::snprintf(err, errlen, "header line %d: unknown statement", lineno);
            return nullptr;
        }
    }
    if (!info.in_w || !info.noutputs) {
        std::snprintf(err, errlen, "header names no input or no output");
        return nullptr;
    }
    tscv_net *n = new (std::nothrow) tscv_net;
    if (!n) {
        std::snprintf(err, errlen, "out of memory");
        return nullptr;
    }
    n->info = info;
    try {
        n->net = cv::dnn::readNetFromONNX((const char *)data + pos, (size_t)onnx);
        n->net.setPreferableBackend(cv::dnn::DNN_BACKEND_OPENCV);
        n->net.setPreferableTarget(cv::dnn::DNN_TARGET_CPU);
        n->out_names = n->net.getUnconnectedOutLayersNames();
        // OpenCV lists the outputs in its own order; when they carry the
        // header's head names, run them in the header's order.
        std::vector<cv::String> named;
        for (int h = 0; h < info.noutputs; h++)
            for (const cv::String &o : n->out_names)
                if (o == info.out[h].name)
                    named.push_back(o);
        if ((int)named.size() == info.noutputs)
            n->out_names = named;
        if ((int)n->out_names.size() != info.noutputs) {
            std::snprintf(err, errlen, "the net has %d outputs, the header names %d",
                          (int)n->out_names.size(), info.noutputs);
            delete n;
            return nullptr;
        }
    } catch (const cv::Exception &e) {
        std::snprintf(err, errlen, "ONNX: %s", e.msg.c_str());
        delete n;
        return nullptr;
    }
    return n;
}

extern "C" tscv_net *tscv_net_load(const char *path, char *err, size_t errlen)
{
    uint8_t *data = nullptr;
    size_t len = 0;
    char why[256];
    if (ts_read_file(path, 64u << 20, &data, &len, why, sizeof why) < 0) {
        std::snprintf(err, errlen, "%s", why);
        return nullptr;
    }
    tscv_net *n = tscv_net_parse(data, len, why, sizeof why);
    std::free(data);
    if (!n)
        std::snprintf(err, errlen, "%s: %s", path, why);
    return n;
}

extern "C" void tscv_net_destroy(tscv_net *net)
{
    delete net;
}

extern "C" const tscv_net_info *tscv_net_get_info(const tscv_net *net)
{
    return &net->info;
}

namespace {

// img converted to the net's channels and shrunk to its input size, into
// net->small (OpenCV's area shrink when ours does not apply).
void to_input(tscv_net *net, const ts_image *img)
{
    const tscv_net_info *in = &net->info;
    cv::Mat m = tscv::wrap(img), c;
    if (in->in_c == 1 && m.channels() == 3)
        cv::cvtColor(m, c, cv::COLOR_BGR2GRAY);
    else if (in->in_c == 3 && m.channels() == 1)
        cv::cvtColor(m, c, cv::COLOR_GRAY2BGR);
    else
        c = m;
    cv::Mat &r = net->small;
    r.create(in->in_h, in->in_w, c.type());
    ts_image from = {c.cols, c.rows, (int)c.step, c.channels(), c.data};
    ts_image to = {r.cols, r.rows, (int)r.step, r.channels(), r.data};
    if (ts_resize_area(&from, &to) != 0) // OpenCV's bytes, faster; else its own
        cv::resize(c, r, r.size(), 0, 0, cv::INTER_AREA);
}

// Writes net->small as image i of the blob (planes of channels, scaled to
// 0..1): the values blobFromImages gives (each byte times the float 1/255),
// with OpenCV's vector loops and without its copies of every image.
void to_blob(tscv_net *net, int i)
{
    const tscv_net_info *in = &net->info;
    float *dst = net->blob.ptr<float>(i);
    cv::Mat plane[3];
    for (int c = 0; c < in->in_c; c++)
        plane[c] = cv::Mat(in->in_h, in->in_w, CV_32F, dst + (size_t)c * in->in_w * in->in_h);
    if (in->in_c == 1) {
        net->small.convertTo(plane[0], CV_32F, 1.0 / 255);
        return;
    }
    net->small.convertTo(net->scaled, CV_32F, 1.0 / 255);
    cv::split(net->scaled, plane);
}

// Softmax of each head's outputs into probs (see tscv_net_run).
int softmax_heads(tscv_net *net, int n, float *probs, char *err)
{
    const tscv_net_info *in = &net->info;
    int total = 0;
    for (int h = 0; h < in->noutputs; h++)
        total += in->out[h].nclass;
    for (int h = 0, off = 0; h < in->noutputs; off += in->out[h].nclass, h++) {
        cv::Mat o = net->outs[h].reshape(1, n);
        if (o.cols != in->out[h].nclass)
            return tscv::fail(err, "net output size differs from its header");
        for (int i = 0; i < n; i++) {
            const float *z = o.ptr<float>(i);
            float mx = z[0], sum = 0;
            for (int k = 1; k < o.cols; k++)
                mx = z[k] > mx ? z[k] : mx;
            float *p = probs + (size_t)i * total + off;
            for (int k = 0; k < o.cols; k++)
                sum += p[k] = std::exp(z[k] - mx);
            for (int k = 0; k < o.cols; k++)
                p[k] /= sum;
        }
    }
    return 0;
}

} // namespace

extern "C" int tscv_net_run(tscv_net *net, const ts_image *imgs, int n, float *probs, char *err)
{
    if (n <= 0)
        return 0;
    const tscv_net_info *in = &net->info;
    try {
        const int shape[4] = {n, in->in_c, in->in_h, in->in_w};
        net->blob.create(4, shape, CV_32F);
        for (int i = 0; i < n; i++) {
            to_input(net, &imgs[i]);
            to_blob(net, i);
        }
        net->net.setInput(net->blob);
        net->net.forward(net->outs, net->out_names);
        return softmax_heads(net, n, probs, err);
    } catch (const cv::Exception &e) {
        if (err)
            std::snprintf(err, TSCV_ERR_MAX, "dnn: %.140s", e.msg.c_str());
        return -1;
    }
}
