// cxx.cc - fixture for C++ names: namespaces, templates, operators (symbolic, new/delete,
// conversions), lambdas, local classes of the standard library, anonymous namespaces,
// inheriting constructors (unique_ptr), virtual functions, std::function, exceptions.
#include <algorithm>
#include <functional>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

namespace ns {
struct Foo {
    int v;
    Foo(int x) : v(x) {}
    ~Foo() {}
    int get() const { return v; }
    Foo operator+(const Foo &o) const { return Foo(v + o.v); }
    bool operator<(const Foo &o) const { return v < o.v; }
};
template <typename T> __attribute__((noinline)) T twice(T x) { return x + x; }
} // namespace ns

namespace {
__attribute__((noinline)) int hidden(int x) { return x * 2; }
} // namespace

struct Base {
    virtual ~Base() {}
    virtual int f() const { return 1; }
};
struct Der : Base {
    int f() const override { return 2; }
    operator bool() const { return true; }
};
template <class T, int N> struct Arr {
    T v[N];
    T &operator[](int i) { return v[i]; }
};
static std::ostream &operator<<(std::ostream &o, const Der &) { return o << "Der"; }
template <typename F> __attribute__((noinline)) int apply(F f, int x) { return f(x); }

int main()
{
    std::vector<int> v{3, 1, 2};
    std::sort(v.begin(), v.end());
    std::map<std::string, int> m;
    m["a"] = 1;
    ns::Foo a(1), b(2);
    ns::Foo c = a + b;
    bool lt = a < b;
    std::unique_ptr<Base> p(new Der);
    std::function<int(int)> fn = [](int x) { return x * 2; };
    Arr<int, 3> arr;
    arr[0] = 1;
    std::ostringstream ss;
    ss << Der();
    Der d;
    bool conv = d;
    try {
        throw std::string("x");
    } catch (std::string &) {
    }
    int r = ns::twice(c.get()) + (int)ns::twice(1.5) + hidden(2) + lt + p->f() + apply(fn, 2) +
            apply([](int y) { return y; }, 1) + arr[0] + conv + (int)ss.str().size();
    return r > 0 ? 0 : 1;
}
