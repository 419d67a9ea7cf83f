// The C side of issue 36's first "Must show" line: reduceNeighbored on 1<<24 ints in plain loops (gcc -O2), which benches/issue36.sh times against `warpdbg run kernels/reduce_neighbored.cu --arg n=16777216`.
#include <stdio.h>
#include <stdlib.h>
int main(void){
  unsigned n = 1u<<24, block = 512; int *d = malloc(n*sizeof(int)); int *o = malloc(n/block*sizeof(int));
  srand(1); for (unsigned i=0;i<n;i++) d[i]=rand()%256;
  for (unsigned b=0;b<n/block;b++){ int *id=d+b*block;
    for (unsigned s=1;s<block;s*=2) for (unsigned t=0;t<block;t++) if ((t%(2*s))==0) id[t]+=id[t+s];
    o[b]=id[0]; }
  long long sum=0; for (unsigned b=0;b<n/block;b++) sum+=o[b]; printf("%lld\n",sum); return 0; }
