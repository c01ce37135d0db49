// expect: safe
// why: swapping a[0] and a[1] through a temporary exchanges their (arbitrary) values
void main() {
  int a[2], t, x0, y0;
  x0 = a[0];
  y0 = a[1];
  t = a[0];
  a[0] = a[1];
  a[1] = t;
  if (a[0] != y0 || a[1] != x0)
    ERROR: ;
}
