// expect: safe
// why: char c = 300 stores 44 (300 mod 256), so c == 300 never holds
void reach_error() {}
int main() {
  char c = 300;
  if (c == 300) reach_error();
  return 0;
}
