// expect: safe
// why: fib(0..6) = 0,1,1,2,3,5,8
int fib(int n) {
  int a, b;
  if (n < 2)
    return n;
  a = fib(n - 1);
  b = fib(n - 2);
  return a + b;
}

void main() {
  int r;
  r = fib(6);
  assert(r == 8);
}
