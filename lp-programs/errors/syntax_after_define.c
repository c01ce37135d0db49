// expect: error
// error-at: 10:13
// error-kind: syntax
#define MAX(a, b) \
  ((a) > (b) ? \
   (a) : (b))
#define N 4
int main(void) {
  int x = MAX(1, N);
  x = x + 1 @ 2;
  return x;
}
