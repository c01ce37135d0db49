// expect: safe
// why: pow2(n) = 2 * pow2(n-1), pow2(0) = 1: pow2(5) = 32 and pow2(0) = 1
int pow2(int n) {
  int t;
  if (n == 0)
    return 1;
  t = pow2(n - 1);
  return 2 * t;
}

void main() {
  int r, s;
  r = pow2(5);
  s = pow2(0);
  assert(r == 32 && s == 1);
}
