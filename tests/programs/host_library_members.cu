// Classes that hold the C++ library's types, as C++-heavy courses write their host code: a matrix class
// over a std::vector, a benchmark record with a std::string label, functions and members returning
// std::string, and std::string's insert, erase, replace and compare.
#include <cstdio>
#include <iostream>
#include <string>
#include <vector>

__global__ void scale(float *x, float s, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] *= s;
}

class HostMatrix {
  public:
    HostMatrix(int rows, int cols, float value) : rows_(rows), cols_(cols), data_(rows * cols, value) {}
    float &at(int r, int c) { return data_[r * cols_ + c]; }
    float *data() { return data_.data(); }
    size_t bytes() const { return data_.size() * sizeof(float); }
    int count() const { return rows_ * cols_; }
    std::string shape() const { return std::to_string(rows_) + "x" + std::to_string(cols_); }

  private:
    int rows_, cols_;
    std::vector<float> data_;
};

struct Result {
    std::string label;
    float checksum;
    std::vector<int> blocks;
};

class Benchmark {
  public:
    Benchmark(const std::string &name) : name_(name) {}
    void add(const Result &r) { results_.push_back(r); }
    void report() const {
        std::cout << "== " << name_ << " (" << results_.size() << " runs)" << std::endl;
        for (const auto &r : results_) std::cout << r.label << ": " << r.checksum << std::endl;
    }
    std::string name_;
    std::vector<Result> results_;
};

// A course's own buffer class, iterated with range-for through its begin() and end().
class Samples {
  public:
    Samples(int n) : n_(n), v_(new float[n]) {
        for (int i = 0; i < n; i++) v_[i] = 0.5f * i;
    }
    ~Samples() { delete[] v_; }
    float *begin() { return v_; }
    float *end() { return v_ + n_; }

  private:
    int n_;
    float *v_;
};

// A member copied from a constructor's argument owns its elements.
struct Histogram {
    std::vector<int> bins;
    Histogram(const std::vector<int> &from) : bins(from) {}
};

std::string names0() { return "abc"; }

std::string verdict(float got, float want) {
    if (got == want) return "PASS";
    return std::string("FAIL");
}

int main() {
    HostMatrix m(4, 8, 1.5f);
    m.at(2, 3) = 4.0f;
    float *d;
    cudaMalloc(&d, m.bytes());
    cudaMemcpy(d, m.data(), m.bytes(), cudaMemcpyHostToDevice);
    scale<<<1, 32>>>(d, 2.0f, m.count());
    cudaMemcpy(m.data(), d, m.bytes(), cudaMemcpyDeviceToHost);
    cudaFree(d);
    float sum = 0;
    for (int r = 0; r < 4; r++)
        for (int c = 0; c < 8; c++) sum += m.at(r, c);
    printf("matrix %s sum %.1f at(2,3) %.1f\n", m.shape().c_str(), sum, m.at(2, 3));

    Benchmark b("scale");
    Result first{"one block", sum, {1}};
    b.add(first);
    Result empty;
    printf("empty label [%s] size %zu empty %d blocks %zu\n", empty.label.c_str(), empty.label.size(),
           (int)empty.label.empty(), empty.blocks.size());
    empty.label = "again";
    empty.label += " (copy)";
    empty.checksum = sum / 2;
    b.add(empty);
    b.report();
    std::cout << verdict(sum, 100.0f) << " " << verdict(sum, 0.0f) << " " << b.name_ + "!" << std::endl;

    std::string s = "reduce kernel";
    s.insert(6, "_v2");
    std::cout << s << std::endl;
    s.erase(0, 7);
    std::cout << s << std::endl;
    s.replace(0, 2, "V");
    std::cout << s << " " << s.size() << std::endl;
    s.erase(1);
    std::cout << s << " " << s.compare("V") << " " << s.compare("W") << " " << names0().compare("ab")
              << std::endl;
    std::vector<std::string> names(3);
    names[1] = "mid";
    names.resize(4);
    names[3] += "end";
    for (const auto &n : names) std::cout << "[" << n << "]";
    std::cout << std::endl;
    try {
        s.insert(10, "x");
    } catch (const std::out_of_range &e) {
        std::cout << e.what() << std::endl;
    }
    Samples samples(5);
    for (float &x : samples) x *= 2;
    float total = 0;
    for (auto x : samples) total += x;
    printf("samples total %.1f\n", total);

    // Vectors as values: temporaries, copies that own their elements, assignment.
    std::vector<int> va = std::vector<int>(3, 1), vc;
    vc = va;
    vc[0] = 5;
    vc.push_back(9);
    std::vector<int> vd = vc;
    vd[1] = 7;
    std::vector<int> ve = std::vector<int>{4, 5};
    printf("a %d %zu vc %d %d %zu vd %d ve %zu %d\n", va[0], va.size(), vc[0], vc[1], vc.size(), vd[1], ve.size(), ve[1]);
    std::vector<std::vector<float>> grid(2);
    for (auto &row : grid) row.resize(3, 0.5f);
    grid[0][1] = 9;
    printf("grid %.1f %.1f %zu\n", grid[0][1], grid[1][1], grid[1].size());
    std::vector<int> vf(va);
    vf[2] = 8;
    Histogram h(va);
    h.bins[1] = 6;
    printf("a %d %d vf %d h %d %zu\n", va[1], va[2], vf[2], h.bins[1], h.bins.size());
    return 0;
}
