// expect: unsafe
// why: f(5) has a frame with n = 4, which reaches the error after its recursive call returns
void f(int n) {
  if (n <= 0)
    return;
  f(n - 1);
  if (n == 4)
    ERROR: ;
}

void main() {
  f(5);
}
