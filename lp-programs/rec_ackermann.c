// expect: safe
// why: ack(1,2) = 4 and ack(2,1) = 5 (small fixed arguments, shallow recursion)
int ack(int m, int n) {
  int t, r;
  if (m == 0)
    return n + 1;
  if (n == 0) {
    r = ack(m - 1, 1);
    return r;
  }
  t = ack(m, n - 1);
  r = ack(m - 1, t);
  return r;
}

void main() {
  int a, b;
  a = ack(1, 2);
  b = ack(2, 1);
  assert(a == 4);
  assert(b == 5);
}
