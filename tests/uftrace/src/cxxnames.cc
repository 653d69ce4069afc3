// cxxnames.cc - fixture for the names uftrace's own demangler prints where a full demangler
// words them otherwise: static constructors (_GLOBAL__sub_I_ followed by a mangled name),
// functions with an ABI tag (those returning std::string: [abi:cxx11]), iostreams (the
// standard abbreviations So, Si, Ss), templates of functions, classes and operators, a
// lambda, a local class, a namespace-scope operator and a conversion.
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

namespace store {
struct Table {
    std::string name;
    explicit Table(const char *n) : name(n) {}
    __attribute__((noinline)) std::string label() const { return "table " + name; }
};
static Table registry("registry"); // a static constructor in this file

__attribute__((noinline)) std::string version() { return "1.2.3"; }
template <typename T> __attribute__((noinline)) std::string describe(const T &v)
{
    std::ostringstream os;
    os << v;
    return os.str();
}
} // namespace store

template <typename K, int N> struct Ring {
    K slots[N];
    int next = 0;
    __attribute__((noinline)) void push(const K &k) { slots[next++ % N] = k; }
    __attribute__((noinline)) K &operator[](int i) { return slots[i % N]; }
    __attribute__((noinline)) operator int() const { return next; }
};

static std::ostream &operator<<(std::ostream &o, const store::Table &t) { return o << t.label(); }

__attribute__((noinline)) int parse(std::istream &in)
{
    int v = 0;
    in >> v;
    return v;
}

int main()
{
    std::cout << store::version() << ' ' << store::registry << '\n';
    std::cout << store::describe(42) << store::describe(std::string("x")) << std::endl;
    Ring<std::string, 2> r;
    r.push(store::version());
    r.push("b");
    std::istringstream in("7");
    int n = parse(in) + static_cast<int>(r);
    auto twice = [](int x) { return x * 2; };
    struct Local {
        __attribute__((noinline)) static int id(int x) { return x; }
    };
    std::vector<int> v{n, twice(n), Local::id(3)};
    std::cout << r[0] << v.size() << std::endl;
    return 0;
}
