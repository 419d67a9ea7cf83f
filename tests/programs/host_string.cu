// std::string in host code, as course programs use it: an operation chosen by name (a command-line argument
// with a default), labels built with + and +=, std::to_string of a size and of a double, compared, printed with cout and
// with printf's %s of c_str(), passed by value and by const reference, and a number read with std::stoi.
#include <cstdio>
#include <iostream>
#include <string>

using namespace std;

__global__ void apply(int *a, int n, int op)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        a[i] = op == 0 ? a[i] + 1 : a[i] * 2;
    }
}

int opcode(const string &name)
{
    if (name == "add") {
        return 0;
    }
    return 1;
}

int vowels(string word)
{
    int count = 0;
    for (size_t i = 0; i < word.size(); i++) {
        if (word[i] == 'a' || word[i] == 'e' || word[i] == 'o' || word[i] == 'u') {
            count++;
        }
    }
    word += "!";
    return count;
}

int main(int argc, char *argv[])
{
    string op_name = (argc > 1) ? argv[1] : "double";
    std::string count_text = "64";
    const int n = stoi(count_text);
    int h[64];
    for (int i = 0; i < n; i++) {
        h[i] = i;
    }
    int *d;
    cudaMalloc(&d, n * sizeof(int));
    cudaMemcpy(d, h, n * sizeof(int), cudaMemcpyHostToDevice);
    apply<<<1, 64>>>(d, n, opcode(op_name));
    cudaMemcpy(h, d, n * sizeof(int), cudaMemcpyDeviceToHost);
    cudaFree(d);

    string title = op_name;
    title += " over ";
    title = title + to_string(n) + " elements";
    cout << "Running " << title << "\n";
    printf("h[5] = %d, h[63] = %d\n", h[5], h[63]);
    string empty;
    cout << "empty: " << empty.empty() << ", title length: " << title.length() << ", size: " << title.size() << endl;
    string copy = title;
    copy += "!";
    printf("%s | %s | vowels %d\n", title.c_str(), copy.c_str(), vowels(title));
    printf("first letter: %c, compare: %d %d %d\n", title[0], op_name == "double", op_name != "add", op_name < "add");
    string pi = "pi=" + to_string(3.25) + ", " + to_string(-7);
    cout << pi << endl;
    return 0;
}
