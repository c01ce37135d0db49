// expect: safe
// why: {3,1,4,1} sums to 9; the global p = {2,-1,5} sums to 6
int p[3] = {2, -1, 5};

void main() {
  int a[4] = {3, 1, 4, 1};
  int i, s, t;
  s = 0;
  t = 0;
  for (i = 0; i < 4; i++)
    s = s + a[i];
  for (i = 0; i < 3; i++)
    t = t + p[i];
  assert(s == 9 && a[2] == 4);
  assert(t == 6 && p[1] == -1);
}
