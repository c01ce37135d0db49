// expect: safe
// why: 4*3 = 12 inner steps in the rectangle, 0+1+2+3+4 = 10 in the triangle j < i < 5
void main() {
  int i, j, c, t;
  c = 0;
  for (i = 0; i < 4; i++) {
    for (j = 0; j < 3; j++)
      c++;
  }
  t = 0;
  for (i = 0; i < 5; i++) {
    for (j = 0; j < i; j++)
      t += 1;
  }
  assert(c == 12);
  assert(t == 10);
}
