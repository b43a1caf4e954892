// Trained classifiers through OpenCV's dnn module (see cvdnn.h).
#include "cvdnn.h"

#include <opencv2/core.hpp>
#include <opencv2/dnn.hpp>
#include <opencv2/dnn/all_layers.hpp>
#include <opencv2/imgproc.hpp>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <vector>

#include "cv_internal.hpp"
extern "C" {
#include "../imageio.h"
#include "../resize_area.h"
#include "../tinynet.h"
}

struct tscv_net {
    tscv_net_info info;
    cv::dnn::Net net;
    std::vector<cv::String> out_names;
    ts_tinynet *tiny = nullptr; // the same net, faster (tinynet.h); NULL: OpenCV runs it
    std::vector<int> tiny_outs; // its dense layers giving the header's heads
    bool use_opencv = false;    // tscv_net_force_opencv
    ~tscv_net() { ts_tinynet_destroy(tiny); }
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

// ---- The net as a ts_tinynet ----------------------------------------------

// Where a layer's output stands: the convolutions' features (CHAIN), those
// flattened (TS_TINYNET_FEATURES), or a dense layer's outputs (its index).
enum { CHAIN = -2 };

bool sizes_are(const std::vector<size_t> &v, size_t a)
{
    return v.size() == 2 && v[0] == a && v[1] == a;
}

// A layer's weights (its first blob, of dims dimensions) and bias (its
// second, one per output, or none): false if they are not so.
bool weights(cv::dnn::Layer *l, int dims, const float **w, const float **bias)
{
    if (l->blobs.empty() || l->blobs[0].type() != CV_32F || l->blobs[0].dims != dims)
        return false;
    *w = l->blobs[0].ptr<float>();
    *bias = nullptr;
    if (l->blobs.size() < 2)
        return true;
    const cv::Mat &b = l->blobs[1];
    *bias = b.ptr<float>();
    return b.type() == CV_32F && (int)b.total() == l->blobs[0].size[0];
}

// A 3 x 3 convolution, padding 1, stride 1, of every input channel.
bool add_conv(ts_tinynet *t, cv::dnn::Layer *l)
{
    auto *c = dynamic_cast<cv::dnn::BaseConvolutionLayer *>(l);
    const float *w, *b;
    if (!c || !sizes_are(c->kernel_size, 3) || !sizes_are(c->strides, 1) ||
        !sizes_are(c->dilations, 1) || !sizes_are(c->pads_begin, 1) || !sizes_are(c->pads_end, 1) ||
        !c->padMode.empty() || !weights(l, 4, &w, &b))
        return false;
    const cv::Mat &m = l->blobs[0];
    return m.size[2] == 3 && m.size[3] == 3 && ts_tinynet_conv(t, m.size[0], m.size[1], w, b) == 0;
}

// A 2 x 2 max pool, stride 2, no padding.
bool add_pool(ts_tinynet *t, cv::dnn::Layer *l)
{
    auto *p = dynamic_cast<cv::dnn::PoolingLayer *>(l);
    const std::vector<size_t> none = {0, 0};
    return p && p->type == 0 /* MAX */ && !p->globalPooling && sizes_are(p->kernel_size, 2) &&
           sizes_are(p->strides, 2) && p->pads_begin == none && p->pads_end == none &&
           ts_tinynet_pool(t) == 0;
}

// A dense layer reading from; its index, or -1.
int add_dense(ts_tinynet *t, cv::dnn::Layer *l, int from)
{
    const float *w, *b;
    if (!weights(l, 2, &w, &b))
        return -1;
    int nin = from == TS_TINYNET_FEATURES ? ts_tinynet_nfeatures(t)
                                          : ts_tinynet_dense_outputs(t, from);
    if (l->blobs[0].size[1] != nin)
        return -1;
    return ts_tinynet_dense(t, from, l->blobs[0].size[0], w, b);
}

// What a net's layers have become so far.
struct tiny_build {
    ts_tinynet *t;
    std::map<const cv::dnn::Layer *, int> node; // each layer's output: CHAIN, ... (above)
    const cv::dnn::Layer *last = nullptr;       // the layer t's last step computes
};

// Adds layer id to b.t; false if the tinynet cannot run it.
bool add_layer(tiny_build &b, cv::dnn::Net &net, int id)
{
    cv::Ptr<cv::dnn::Layer> l = net.getLayer(id);
    std::vector<cv::Ptr<cv::dnn::Layer>> ins = net.getLayerInputs(id);
    if (ins.size() != 1)
        return false;
    auto it = b.node.find(ins[0].get());
    if (it == b.node.end() && id != 1) // only the first layer reads the net's input
        return false;
    int from = it == b.node.end() ? CHAIN : it->second, out;
    // a step that extends t's last one must read that one's output
    bool follows = ins[0].get() == b.last || (id == 1 && !b.last);
    const std::string &type = l->type;
    if (type == "Convolution" && from == CHAIN && follows && add_conv(b.t, l.get()))
        out = CHAIN;
    else if (type == "Pooling" && from == CHAIN && follows && add_pool(b.t, l.get()))
        out = CHAIN;
    else if (type == "ReLU" && follows) {
        auto *r = dynamic_cast<cv::dnn::ReLULayer *>(l.get());
        if (!r || r->negativeSlope != 0 || ts_tinynet_relu(b.t) < 0)
            return false;
        out = from;
    } else if (type == "Flatten" && (from == TS_TINYNET_FEATURES || (from == CHAIN && follows)))
        out = TS_TINYNET_FEATURES;
    else if (type == "InnerProduct" && from != CHAIN && (out = add_dense(b.t, l.get(), from)) >= 0)
        ;
    else if (type == "Identity")
        out = from;
    else
        return false;
    if (type != "Flatten" && type != "Identity")
        b.last = l.get();
    b.node[l.get()] = out;
    return true;
}

// The net as a ts_tinynet whose dense layers outs give the named outputs,
// or NULL when it has a layer the tinynet does not run.
ts_tinynet *tiny_from(cv::dnn::Net &net, const tscv_net_info &info,
                      const std::vector<cv::String> &out_names, std::vector<int> &outs)
{
    tiny_build b;
    b.t = ts_tinynet_create(info.in_w, info.in_h, info.in_c);
    int nlayers = (int)net.getLayerNames().size();
    bool ok = b.t != nullptr;
    for (int id = 1; ok && id <= nlayers; id++)
        ok = add_layer(b, net, id);
    outs.clear();
    for (int h = 0; ok && h < info.noutputs; h++) {
        auto it = b.node.find(net.getLayer(out_names[h]).get());
        ok = it != b.node.end() && it->second >= 0 &&
             ts_tinynet_dense_outputs(b.t, it->second) == info.out[h].nclass;
        if (ok)
            outs.push_back(it->second);
    }
    if (!ok) {
        ts_tinynet_destroy(b.t);
        return nullptr;
    }
    return b.t;
}

// ---- Running ----------------------------------------------------------------

int total_classes(const tscv_net_info *in)
{
    int total = 0;
    for (int h = 0; h < in->noutputs; h++)
        total += in->out[h].nclass;
    return total;
}

// An image at the net's input size and channels.
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
    if (ts_resize_area(&from, &to) != 0) // OpenCV's bytes, faster; else its own
        cv::resize(c, r, r.size(), 0, 0, cv::INTER_AREA);
    return r;
}

// The heads' raw outputs of every image by OpenCV: z[i * total + offset(head) + class].
bool logits_opencv(tscv_net *net, const std::vector<cv::Mat> &batch, float *z)
{
    const tscv_net_info *in = &net->info;
    int n = (int)batch.size(), total = total_classes(in);
    cv::Mat blob = cv::dnn::blobFromImages(batch, 1.0 / 255, cv::Size(), cv::Scalar(), false,
                                           false, CV_32F);
    net->net.setInput(blob);
    std::vector<cv::Mat> outs;
    net->net.forward(outs, net->out_names);
    for (int h = 0, off = 0; h < in->noutputs; off += in->out[h].nclass, h++) {
        cv::Mat o = outs[h].reshape(1, n);
        if (o.cols != in->out[h].nclass)
            return false;
        for (int i = 0; i < n; i++)
            std::memcpy(z + (size_t)i * total + off, o.ptr<float>(i), sizeof *z * o.cols);
    }
    return true;
}

// The same by the tinynet.
void logits_tiny(tscv_net *net, const std::vector<cv::Mat> &batch, float *z)
{
    int total = total_classes(&net->info);
    for (size_t i = 0; i < batch.size(); i++)
        ts_tinynet_run(net->tiny, batch[i].data, batch[i].step, net->tiny_outs.data(),
                       (int)net->tiny_outs.size(), z + i * total);
}

// True if the tinynet gives OpenCV's outputs, to float rounding, on a few
// made-up images (noise, and smooth shades with noise on them).
bool tiny_agrees(tscv_net *net)
{
    const tscv_net_info *in = &net->info;
    enum { N = 4 };
    std::vector<cv::Mat> batch;
    uint32_t seed = 12345;
    for (int i = 0; i < N; i++) {
        cv::Mat m(in->in_h, in->in_w, CV_8UC(in->in_c));
        for (int y = 0; y < m.rows; y++)
            for (int x = 0; x < m.cols * in->in_c; x++) {
                seed = seed * 1664525u + 1013904223u;
                int noise = (int)(seed >> 24), smooth = (x * 7 + y * 5 * (i + 1)) % 256;
                m.ptr<uint8_t>(y)[x] = (uint8_t)(i == 0 ? noise : (3 * smooth + noise) / 4);
            }
        batch.push_back(m);
    }
    int total = total_classes(in);
    std::vector<float> a((size_t)N * total), b((size_t)N * total);
    try { // a net OpenCV cannot run fails when run, as before, not when loaded
        if (!logits_opencv(net, batch, a.data()))
            return false;
    } catch (const cv::Exception &) {
        return false;
    }
    logits_tiny(net, batch, b.data());
    for (size_t k = 0; k < a.size(); k++)
        if (!(std::fabs(a[k] - b[k]) <= 1e-4f * (1 + std::fabs(a[k]))))
            return false;
    return true;
}

// Softmax of each head's outputs, image after image.
void softmax_heads(const tscv_net_info *in, const float *z, int n, float *probs)
{
    int total = total_classes(in);
    for (int i = 0; i < n; i++)
        for (int h = 0, off = 0; h < in->noutputs; off += in->out[h].nclass, h++) {
            const float *zi = z + (size_t)i * total + off;
            float *p = probs + (size_t)i * total + off;
            int nc = in->out[h].nclass;
            float mx = zi[0], sum = 0;
            for (int k = 1; k < nc; k++)
                mx = zi[k] > mx ? zi[k] : mx;
            for (int k = 0; k < nc; k++)
                sum += p[k] = std::exp(zi[k] - mx);
            for (int k = 0; k < nc; k++)
                p[k] /= sum;
        }
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
        // read before the first forward (OpenCV fuses layers then)
        n->tiny = tiny_from(n->net, info, n->out_names, n->tiny_outs);
        if (n->tiny && !tiny_agrees(n)) {
            ts_tinynet_destroy(n->tiny);
            n->tiny = nullptr;
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

extern "C" int tscv_net_force_opencv(tscv_net *net, int on)
{
    net->use_opencv = on != 0;
    return net->tiny != nullptr;
}

extern "C" int tscv_net_run(tscv_net *net, const ts_image *imgs, int n, float *probs, char *err)
{
    if (n <= 0)
        return 0;
    const tscv_net_info *in = &net->info;
    try {
        std::vector<cv::Mat> batch;
        batch.reserve(n);
        for (int i = 0; i < n; i++)
            batch.push_back(net_input(in, &imgs[i]));
        std::vector<float> z((size_t)n * total_classes(in));
        if (net->tiny && !net->use_opencv)
            logits_tiny(net, batch, z.data());
        else if (!logits_opencv(net, batch, z.data()))
            return tscv::fail(err, "net output size differs from its header");
        softmax_heads(in, z.data(), n, probs);
    } catch (const cv::Exception &e) {
        if (err)
            std::snprintf(err, TSCV_ERR_MAX, "dnn: %.140s", e.msg.c_str());
        return -1;
    }
    return 0;
}
