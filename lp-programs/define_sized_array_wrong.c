// expect: unsafe
// why: N is 5 after preprocessing, so the loop writes a[4] = 8 and the check a[N-1] == 8 fires
#define N 5
#ifndef M
#define M (N - 1)
#endif
int a[N];
int main(void) {
  for (int i = 0; i < N; i++)
    a[i] = 2 * i;
  if (a[M] == 8)
    reach_error();
  return 0;
}
