// expect: safe
// why: McCarthy's 91 function: mc(97) = 91 and mc(105) = 95
int mc(int n) {
  int t, r;
  if (n > 100)
    return n - 10;
  t = mc(n + 11);
  r = mc(t);
  return r;
}

void main() {
  int a, b;
  a = mc(97);
  b = mc(105);
  assert(a == 91 && b == 95);
}
