// expect: safe
// why: N is 5 after preprocessing; the loop sets a[i] = 2i, so a[N-1] == 8
#include <stdio.h>
#define N 5
#define SET(arr, k) \
  arr[k] = 2 * (k)
int a[N];
int main(void) {
  for (int i = 0; i < N; i++)
    SET(a, i);
  if (a[N - 1] != 8)
    reach_error();
  return 0;
}
