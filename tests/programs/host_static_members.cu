// Static data members of host classes, as courses count objects and share settings (issue 33): one variable
// for the whole program, defined out of the class (`int Particle::created = 0;`) or initialised in it
// (`static const int per_block = 128;`), named bare in the class's member functions and `Class::name`
// elsewhere; and a value-initialised number (`float()`).
#include <cstdio>

class Particle {
public:
    static int created;
    static const int per_block = 128;
    static float scale[2];
    int id;
    float mass;

    Particle(float m) : id(created), mass(m * scale[created % 2]) { created++; }
    static int count() { return created; }
};

int Particle::created = 0;
float Particle::scale[2] = {1.0f, 0.5f};

__global__ void weigh(const float *mass, float *total, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) atomicAdd(total, mass[i]);
}

int main()
{
    Particle a(2.0f), b(4.0f), c(8.0f);
    printf("created %d (count() %d), ids %d %d %d, sizeof(Particle) %zu\n", Particle::created, Particle::count(), a.id,
           b.id, c.id, sizeof(Particle));
    float h_mass[3] = {a.mass, b.mass, c.mass};
    float *d_mass, *d_total;
    cudaMalloc(&d_mass, sizeof(h_mass));
    cudaMalloc(&d_total, sizeof(float));
    cudaMemcpy(d_mass, h_mass, sizeof(h_mass), cudaMemcpyHostToDevice);
    float zero = float();
    cudaMemcpy(d_total, &zero, sizeof(float), cudaMemcpyHostToDevice);
    int blocks = (3 + Particle::per_block - 1) / Particle::per_block;
    weigh<<<blocks, Particle::per_block>>>(d_mass, d_total, 3);
    float total;
    cudaMemcpy(&total, d_total, sizeof(float), cudaMemcpyDeviceToHost);
    Particle::created = 10;
    Particle d(1.0f);
    printf("total mass %.2f in %d block(s); next id %d, created %d\n", total, blocks, d.id, Particle::created);
    cudaFree(d_mass);
    cudaFree(d_total);
    return 0;
}
