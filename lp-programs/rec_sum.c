// expect: safe
// why: sum(n) = n + sum(n-1), sum(0) = 0, so sum(5) = 15
int sum(int n) {
  int s;
  if (n <= 0)
    return 0;
  s = sum(n - 1);
  return n + s;
}

void main() {
  int r;
  r = sum(5);
  assert(r == 15);
}
