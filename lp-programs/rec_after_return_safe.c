// expect: safe
// why: f(3) has frames with n = 3, 2, 1, 0; the check after the call needs n == 4
void f(int n) {
  if (n <= 0)
    return;
  f(n - 1);
  if (n == 4)
    ERROR: ;
}

void main() {
  f(3);
}
