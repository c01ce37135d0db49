// expect: safe
// why: mutual recursion counts 7 (resp. 4) down to 0, flipping parity at each step
int is_odd(int n);

int is_even(int n) {
  int r;
  if (n == 0)
    return 1;
  r = is_odd(n - 1);
  return r;
}

int is_odd(int n) {
  int r;
  if (n == 0)
    return 0;
  r = is_even(n - 1);
  return r;
}

void main() {
  int e, o;
  e = is_even(7);
  o = is_odd(7);
  assert(e == 0 && o == 1);
  e = is_even(4);
  if (e != 1)
    ERROR: ;
}
