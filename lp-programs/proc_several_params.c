// expect: safe
// why: lin(a,b,c) = a + 2b - c, so lin(1,2,3) = 2 and lin(2,2,0) = 6 (arguments in order)
int lin(int a, int b, int c) {
  int t;
  t = a + 2 * b;
  t = t - c;
  return t;
}

void main() {
  int r, s;
  r = lin(1, 2, 3);
  s = lin(r, r, 0);
  assert(r == 2);
  assert(s == 6);
}
