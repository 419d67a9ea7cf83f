// Reads back what it wrote: std::ofstream writes a table of points, std::ifstream reads it with >> and
// std::getline, std::istringstream splits lines into words, std::ostringstream builds a label.
#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

__global__ void scale(float *x, int n, float s)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] *= s;
}

int main()
{
    std::ofstream out("points.txt");
    for (int i = 0; i < 5; i++) {
        out << i << " " << 0.5f * i << "\n";
    }
    out << "\n";
    out.close();

    std::ifstream in("points.txt");
    if (!in) {
        std::cout << "cannot open points.txt" << std::endl;
        return 1;
    }
    std::vector<float> xs;
    int id;
    float x;
    while (in >> id >> x) {
        xs.push_back(x);
    }
    std::cout << "read " << xs.size() << " values, eof " << in.eof() << ", fail " << in.fail() << std::endl;
    in.close();

    std::ifstream lines("points.txt");
    std::string line, word;
    int count = 0;
    while (std::getline(lines, line)) {
        std::istringstream words(line);
        if (line.length() == 0) {
            std::cout << "empty line" << std::endl;
            continue;
        }
        words >> word;
        double second = 0;
        words >> second;
        std::cout << "line " << count << ": '" << line << "' first " << word << " second " << second << std::endl;
        count++;
    }
    std::cout << "good " << lines.good() << " eof " << lines.eof() << std::endl;

    int n = (int)xs.size();
    float *d;
    cudaMalloc(&d, n * sizeof(float));
    cudaMemcpy(d, xs.data(), n * sizeof(float), cudaMemcpyHostToDevice);
    scale<<<1, 32>>>(d, n, 4.0f);
    cudaMemcpy(xs.data(), d, n * sizeof(float), cudaMemcpyDeviceToHost);
    cudaFree(d);

    std::ostringstream label;
    label << "scaled:";
    for (int i = 0; i < n; i++) {
        label << " " << xs[i];
    }
    std::string text = label.str();
    std::cout << text << " (" << text.size() << " chars)" << std::endl;

    std::istringstream bad("12 abc 7");
    int a = -1, b = -1;
    bad >> a >> b;
    std::cout << "a " << a << " b " << b << " fail " << bad.fail() << std::endl;
    bad.clear();
    std::string rest;
    bad >> rest;
    std::cout << "after clear: " << rest << std::endl;

    std::ifstream missing("no_such_file.txt");
    std::cout << "missing open " << missing.is_open() << " ok " << (bool)!missing << std::endl;
    return 0;
}
