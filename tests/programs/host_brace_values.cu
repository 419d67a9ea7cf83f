// Brace lists as values in host code: a struct returned as `{a, b}`, assigned from `{..}`, passed as
// `{..}` by value and by const reference, `P{..}` temporaries, and vectors of structs built from lists.
#include <cstdio>
#include <vector>

struct Point {
    int x;
    int y;
};

struct Segment {
    Point from;
    Point to;
    float weight;
};

Point scaled(int k) { return {k, k * 2}; }

Segment diagonal(int n) { return {{0, 0}, {n, n}, 0.5f * n}; }

int manhattan(Point p) { return p.x + p.y; }

int area(const Point &p) { return p.x * p.y; }

__global__ void shift(Point *pts, int n, Point by) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        pts[i].x += by.x;
        pts[i].y += by.y;
    }
}

int main() {
    Point p = scaled(3);
    Point q{4, 5};
    Point grid[3];
    grid[0] = {7, 8};
    grid[1] = Point{9, 10};
    grid[2] = {11};
    printf("p=(%d,%d) q=(%d,%d)\n", p.x, p.y, q.x, q.y);
    for (int i = 0; i < 3; i++) printf("grid[%d]=(%d,%d)\n", i, grid[i].x, grid[i].y);

    Segment s = diagonal(6);
    printf("segment (%d,%d)-(%d,%d) w=%.2f\n", s.from.x, s.from.y, s.to.x, s.to.y, s.weight);
    printf("manhattan=%d area=%d\n", manhattan({10, 20}), area({3, 4}));

    std::vector<Point> pts = {{1, 2}, {3, 4}};
    pts.push_back({5, 6});
    for (int i = 0; i < 4; i++) pts.push_back(Point{i, -i});
    for (size_t i = 0; i < pts.size(); i++) pts[i] = {pts[i].x * 10, pts[i].y};

    int n = (int)pts.size();
    Point *d_pts;
    cudaMalloc(&d_pts, n * sizeof(Point));
    cudaMemcpy(d_pts, pts.data(), n * sizeof(Point), cudaMemcpyHostToDevice);
    shift<<<1, 32>>>(d_pts, n, Point{1, 100});
    cudaMemcpy(pts.data(), d_pts, n * sizeof(Point), cudaMemcpyDeviceToHost);
    cudaFree(d_pts);
    for (const auto &pt : pts) printf("(%d,%d) ", pt.x, pt.y);
    printf("\n");
    return 0;
}
