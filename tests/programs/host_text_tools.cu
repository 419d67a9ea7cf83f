// A course-style report tool: parses "name:value" records, scales the values on the GPU, sorts them with
// qsort and prints a table with iostream manipulators (std::string members, local references, vector lists).
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <iomanip>
#include <sstream>
#include <string>
#include <vector>
#include <algorithm>

struct Record {
    char name[16];
    float value;
};

__global__ void scale(Record *r, int n, float factor) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        const float &v = r[i].value;
        r[i].value = v * factor + i;
    }
}

static int by_value_desc(const void *a, const void *b) {
    float x = ((const Record *)a)->value, y = ((const Record *)b)->value;
    return (x < y) - (x > y);
}

int main() {
    std::string input = "alpha:3.5,beta:12.25,gamma:0.5,delta:7,epsilon:12.25,zeta:1";
    std::vector<Record> recs;
    std::string rest = input;
    size_t comma;
    while (true) {
        comma = rest.find(',');
        std::string item = rest.substr(0, comma);
        size_t colon = item.find(':');
        Record r;
        std::string name = item.substr(0, colon);
        snprintf(r.name, sizeof r.name, "%s", name.c_str());
        r.value = std::stof(item.substr(colon + 1));
        recs.push_back(r);
        if (comma == std::string::npos) break;
        rest = rest.substr(comma + 1);
    }
    int n = (int)recs.size();
    Record *d;
    cudaMalloc(&d, n * sizeof(Record));
    cudaMemcpy(d, recs.data(), n * sizeof(Record), cudaMemcpyHostToDevice);
    scale<<<1, 32>>>(d, n, 2.0f);
    cudaMemcpy(recs.data(), d, n * sizeof(Record), cudaMemcpyDeviceToHost);
    cudaFree(d);
    qsort(recs.data(), n, sizeof(Record), by_value_desc);

    std::cout << std::left << std::setw(10) << "name" << std::right << std::setw(10) << "value" << "\n";
    std::cout << std::string(20, '-') << "\n";
    std::ostringstream summary;
    summary << std::fixed << std::setprecision(3);
    float total = 0;
    for (int i = 0; i < n; ++i) {
        Record &r = recs[i];
        std::string label = r.name;
        label[0] = (char)(label[0] - 32);
        std::cout << std::left << std::setw(10) << label << std::right << std::setw(10) << r.value << "\n";
        total += r.value;
    }
    summary << "total " << total << " mean " << total / n;
    std::cout << summary.str() << " | " << total << "\n";
    std::cout << std::setfill('.') << std::setw(12) << std::hex << 48879 << std::dec << std::setfill(' ') << "\n";
    std::cout.precision(4);
    std::cout << std::scientific << total << " " << std::defaultfloat << total / 3 << "\n";
    std::vector<int> ranks = {5, 3, 9, 1};
    std::sort(ranks.begin(), ranks.end());
    int &best = ranks[0];
    best += 100;
    std::string word = "reduction";
    std::reverse(word.begin(), word.end());
    int vowels = 0;
    for (char c : word) vowels += (c == 'a' || c == 'e' || c == 'i' || c == 'o' || c == 'u');
    std::cout << ranks[0] << " " << ranks.size() << " " << word << " " << vowels << " " << word.rfind('u') << "\n";
    std::cout << std::boolalpha << (word.find("xyz") == std::string::npos) << "\n";
    return 0;
}
