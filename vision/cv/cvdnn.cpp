// Trained classifiers through OpenCV's dnn module (see cvdnn.h).
#include "cvdnn.h"

#include <opencv2/core.hpp>
#include <opencv2/dnn.hpp>
#include <opencv2/dnn/all_layers.hpp>
#include <opencv2/imgproc.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "cv_internal.hpp"
extern "C" {
#include "../convnet.h"
#include "../imageio.h"
#include "../resize_area.h"
}

struct tscv_net {
    tscv_net_info info;
    cv::dnn::Net net;
    std::vector<cv::String> out_names;
    ts_convnet *own = nullptr; // the same net evaluated in C, when it has that shape
    int engine = TSCV_NET_OWN;
    std::vector<float> logits;
    tscv_net() = default;
    tscv_net(const tscv_net &) = delete; // owns own
    tscv_net &operator=(const tscv_net &) = delete;
    ~tscv_net() { ts_convnet_destroy(own); }
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

// The layer's blob k as floats, or an empty Mat.
cv::Mat blob(const cv::Ptr<cv::dnn::Layer> &l, size_t k)
{
    if (k >= l->blobs.size() || l->blobs[k].type() != CV_32F || !l->blobs[k].isContinuous())
        return cv::Mat();
    return l->blobs[k];
}

bool is_pair(const std::vector<size_t> &v, size_t a)
{
    return v.size() == 2 && v[0] == a && v[1] == a;
}

// A dense layer's weights (out x n) and biases, checked: nullptr if not one.
bool dense_blobs(const cv::Ptr<cv::dnn::Layer> &l, cv::Mat *w, cv::Mat *b)
{
    auto *ip = dynamic_cast<cv::dnn::InnerProductLayer *>(l.get());
    *w = blob(l, 0), *b = blob(l, 1);
    return ip && ip->axis == 1 && w->dims == 2 && !b->empty() && (int)b->total() == w->rows;
}

// The net as a ts_convnet when its graph has the shape convnet.h evaluates:
// a chain of 3x3 convolutions (padding 1, stride 1, with their biases),
// ReLUs, 2x2 max pools, flattens and dense layers, then one dense head per
// output (the header's order), each read from the chain's end. Else nullptr
// (OpenCV runs the net).
ts_convnet *own_net(cv::dnn::Net &net, const tscv_net_info &info,
                    const std::vector<cv::String> &outs)
{
    using namespace cv::dnn;
    std::vector<int> heads; // each output's dense layer
    for (const cv::String &o : outs) {
        int id = net.getLayerId(o);
        if (id <= 0)
            return nullptr;
        if (net.getLayer(id)->type == "Identity") {
            std::vector<cv::Ptr<Layer>> ins = net.getLayerInputs(id);
            if (ins.size() != 1)
                return nullptr;
            id = net.getLayerId(ins[0]->name);
        }
        if (id <= 0 || net.getLayer(id)->type != "InnerProduct")
            return nullptr;
        heads.push_back(id);
    }
    ts_convnet *own = ts_convnet_create(info.in_c, info.in_h, info.in_w);
    if (!own)
        return nullptr;
    std::vector<cv::String> names = net.getLayerNames();
    cv::String prev; // the chain's last layer so far ("" the input)
    int c = info.in_c;
    bool ok = true;
    for (size_t k = 0; k < names.size() && ok; k++) {
        int id = net.getLayerId(names[k]);
        cv::Ptr<Layer> l = net.getLayer(id);
        bool is_head = std::find(heads.begin(), heads.end(), id) != heads.end();
        if (is_head || (l->type == "Identity" &&
                        std::find(outs.begin(), outs.end(), l->name) != outs.end()))
            continue; // read at the end
        std::vector<cv::Ptr<Layer>> ins = net.getLayerInputs(id);
        if (ins.size() != 1 || (prev.empty() ? net.getLayerId(ins[0]->name) != 0
                                             : ins[0]->name != prev)) {
            ok = false;
            break;
        }
        prev = l->name;
        if (l->type == "Convolution") {
            auto *cl = dynamic_cast<BaseConvolutionLayer *>(l.get());
            cv::Mat w = blob(l, 0), b = blob(l, 1);
            ok = cl && is_pair(cl->kernel_size, 3) && is_pair(cl->strides, 1) &&
                 is_pair(cl->dilations, 1) && is_pair(cl->pads_begin, 1) &&
                 is_pair(cl->pads_end, 1) && cl->padMode.empty() && w.dims == 4 &&
                 w.size[1] == c && w.size[2] == 3 && w.size[3] == 3 && !b.empty() &&
                 (int)b.total() == w.size[0] &&
                 ts_convnet_conv3(own, w.size[0], w.ptr<float>(), b.ptr<float>(), 0) == 0;
            c = w.size[0];
        } else if (l->type == "ReLU") {
            auto *rl = dynamic_cast<ReLULayer *>(l.get());
            ok = rl && rl->negativeSlope == 0 && ts_convnet_relu(own) == 0;
        } else if (l->type == "Pooling") {
            auto *pl = dynamic_cast<PoolingLayer *>(l.get());
            ok = pl && pl->type == 0 /* max */ && is_pair(pl->kernel_size, 2) &&
                 is_pair(pl->strides, 2) && is_pair(pl->pads_begin, 0) &&
                 is_pair(pl->pads_end, 0) && !pl->globalPooling && !pl->ceilMode &&
                 pl->padMode.empty() && ts_convnet_pool2(own) == 0;
        } else if (l->type == "InnerProduct") {
            cv::Mat w, b;
            ok = dense_blobs(l, &w, &b) &&
                 ts_convnet_dense(own, w.rows, w.ptr<float>(), b.ptr<float>(), 0) == 0;
        } else {
            ok = l->type == "Flatten" || l->type == "Identity";
        }
    }
    for (size_t h = 0; h < heads.size() && ok; h++) {
        cv::Ptr<Layer> l = net.getLayer(heads[h]);
        std::vector<cv::Ptr<Layer>> ins = net.getLayerInputs(heads[h]);
        cv::Mat w, b;
        ok = ins.size() == 1 && ins[0]->name == prev && dense_blobs(l, &w, &b) &&
             w.rows == info.out[h].nclass &&
             ts_convnet_head(own, w.rows, w.ptr<float>(), b.ptr<float>()) == 0;
    }
    if (!ok) {
        ts_convnet_destroy(own);
        return nullptr;
    }
    return own;
}


// Softmax of one head's logits z (k classes) into p.
void softmax(const float *z, int k, float *p)
{
    float mx = z[0], sum = 0;
    for (int j = 1; j < k; j++)
        mx = z[j] > mx ? z[j] : mx;
    for (int j = 0; j < k; j++)
        sum += p[j] = std::exp(z[j] - mx);
    for (int j = 0; j < k; j++)
        p[j] /= sum;
}

// Image i as the net's input: resized (INTER_AREA) to its size, in its channels.
cv::Mat net_input(const tscv_net_info *in, const ts_image *img)
{
    cv::Mat m = tscv::wrap(img), c, r;
    if (in->in_c == 1 && m.channels() == 3)
        cv::cvtColor(m, c, cv::COLOR_BGR2GRAY);
    else if (in->in_c == 3 && m.channels() == 1)
        cv::cvtColor(m, c, cv::COLOR_GRAY2BGR);
    else
        c = m;
    r.create(in->in_h, in->in_w, c.type());
    ts_image from = {c.cols, c.rows, (int)c.step, c.channels(), c.data};
    ts_image to = {r.cols, r.rows, (int)r.step, r.channels(), r.data};
    if (ts_resize_area(&from, &to) != 0) // not a shrink it covers: OpenCV's own
        cv::resize(c, r, r.size(), 0, 0, cv::INTER_AREA);
    return r;
}

// The logits of n images through OpenCV's dnn: image after image, head after head.
void run_opencv(tscv_net *net, const std::vector<cv::Mat> &batch, float *logits, int total)
{
    const tscv_net_info *in = &net->info;
    const int n = (int)batch.size();
    cv::Mat blob = cv::dnn::blobFromImages(batch, 1.0 / 255, cv::Size(), cv::Scalar(), false,
                                           false, CV_32F);
    net->net.setInput(blob);
    std::vector<cv::Mat> outs;
    net->net.forward(outs, net->out_names);
    for (int h = 0, off = 0; h < in->noutputs; off += in->out[h].nclass, h++) {
        cv::Mat o = outs[h].reshape(1, n);
        if (o.cols != in->out[h].nclass)
            CV_Error(cv::Error::StsBadSize, "net output size differs from its header");
        for (int i = 0; i < n; i++)
            std::memcpy(logits + (size_t)i * total + off, o.ptr<float>(i),
                        (size_t)o.cols * sizeof(float));
    }
}

// The logits of one image (the net's input size, uint8) through the own net.
void run_own(tscv_net *net, const cv::Mat &r, float *logits, int vector)
{
    ts_convnet_run_u8(net->own, r.data, r.step, (float)(1.0 / 255), logits, vector);
}

// Whether the own net gives OpenCV's logits on a few fixed inputs, to
// within float rounding (a graph read wrongly differs by far more).
bool own_agrees(tscv_net *net)
{
    const tscv_net_info *in = &net->info;
    int total = 0;
    for (int h = 0; h < in->noutputs; h++)
        total += in->out[h].nclass;
    if (ts_convnet_outputs(net->own) != total)
        return false;
    std::vector<cv::Mat> batch;
    uint32_t seed = 12345;
    for (int i = 0; i < 3; i++) {
        cv::Mat m(in->in_h, in->in_w, in->in_c == 1 ? CV_8UC1 : CV_8UC3);
        for (size_t k = 0; k < m.total() * m.elemSize(); k++) {
            seed = seed * 1664525u + 1013904223u;
            // a smooth ramp with noise, and one plain image (all borders alike)
            m.data[k] = i == 2 ? 128 : (uint8_t)((k * 7 + (seed >> 24) / 2) & 255);
        }
        batch.push_back(m);
    }
    std::vector<float> a(batch.size() * total), b(total);
    try {
        run_opencv(net, batch, a.data(), total);
    } catch (const cv::Exception &) {
        return false; // OpenCV's own run fails too: leave the net to it, as before
    }
    for (size_t i = 0; i < batch.size(); i++) {
        for (int vector = 0; vector < 2; vector++) {
            run_own(net, batch[i], b.data(), vector);
            for (int k = 0; k < total; k++) {
                float r = a[i * total + k];
                if (!(std::fabs(b[k] - r) <= 1e-3f * (1 + std::fabs(r))))
                    return false;
            }
        }
    }
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
        n->own = own_net(n->net, info, n->out_names);
        if (n->own && !own_agrees(n)) {
            ts_convnet_destroy(n->own);
            n->own = nullptr;
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


extern "C" int tscv_net_run(tscv_net *net, const ts_image *imgs, int n, float *probs, char *err)
{
    if (n <= 0)
        return 0;
    const tscv_net_info *in = &net->info;
    int total = 0;
    for (int h = 0; h < in->noutputs; h++)
        total += in->out[h].nclass;
    try {
        net->logits.resize((size_t)n * total);
        float *z = net->logits.data();
        if (net->own && net->engine != TSCV_NET_OPENCV) {
            for (int i = 0; i < n; i++)
                run_own(net, net_input(in, &imgs[i]), z + (size_t)i * total,
                        net->engine == TSCV_NET_OWN);
        } else {
            std::vector<cv::Mat> batch;
            batch.reserve(n);
            for (int i = 0; i < n; i++)
                batch.push_back(net_input(in, &imgs[i]));
            run_opencv(net, batch, z, total);
        }
        for (int i = 0; i < n; i++)
            for (int h = 0, off = 0; h < in->noutputs; off += in->out[h].nclass, h++)
                softmax(z + (size_t)i * total + off, in->out[h].nclass,
                        probs + (size_t)i * total + off);
    } catch (const cv::Exception &e) {
        if (err)
            std::snprintf(err, TSCV_ERR_MAX, "dnn: %.140s", e.msg.c_str());
        return -1;
    }
    return 0;
}

extern "C" int tscv_net_engine(tscv_net *net, int engine)
{
    if (engine == TSCV_NET_OPENCV || ((engine == TSCV_NET_OWN || engine == TSCV_NET_OWN_PLAIN) &&
                                      net->own))
        net->engine = engine;
    return net->own ? net->engine : TSCV_NET_OPENCV;
}
