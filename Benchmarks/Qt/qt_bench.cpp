// qt_bench: the figures of bench-ecmascript (Benchmarks/Sources/bench-ecmascript) measured on
// Qt SCXML, so scripts/bench.sh can print them side by side from one run:
//
//   qt_bench CHART.scxml [--rounds N] [--millis M] [--sessions K]
//
// Each session is QScxmlStateMachine::fromFile(CHART.scxml) (Qt's runtime loader; its
// ECMAScript datamodel runs on QJSEngine). Events are the names of CHART.events, converted to
// QString once and submitted with submitEvent(); Qt queues external events and runs them from
// its event loop, so each batch of 64 is processed by one QCoreApplication::processEvents() (one
// event loop pass per event would measure Qt's event loop, not its interpreter). Output lines:
// `qt<TAB>CHART<TAB>METRIC<TAB>VALUE`, the metrics of bench-ecmascript:
//   resident_per_session (measured first), sessions_per_second (fromFile, start, first
//   configuration, delete), ns_per_event (median of N runs of ~M ms of thread CPU time).
#include <QCoreApplication>
#include <QFile>
#include <QFileInfo>
#include <QScxmlStateMachine>
#include <QStringList>
#include <QTextStream>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <memory>
#include <unistd.h>
#include <vector>

static double thread_cpu_ns() {
    timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return double(ts.tv_sec) * 1e9 + double(ts.tv_nsec);
}

static long resident_bytes() {
    long pages = 0, resident = 0;
    FILE *f = std::fopen("/proc/self/statm", "r");
    if (f == nullptr) return 0;
    if (std::fscanf(f, "%ld %ld", &pages, &resident) != 2) resident = 0;
    std::fclose(f);
    return resident * sysconf(_SC_PAGESIZE);
}

static double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    size_t m = v.size() / 2;
    return v.size() % 2 ? v[m] : (v[m - 1] + v[m]) / 2;
}

static QString chart_path, chart_name;

static QScxmlStateMachine *started_machine() {
    QScxmlStateMachine *machine = QScxmlStateMachine::fromFile(chart_path);
    if (machine == nullptr || !machine->parseErrors().isEmpty()) {
        std::fprintf(stderr, "qt_bench: %s does not load in Qt SCXML\n", qPrintable(chart_path));
        std::exit(1);
    }
    machine->start();
    QCoreApplication::processEvents();
    return machine;
}

static void report(const char *metric, double value) {
    std::printf("qt\t%s\t%s\t%.1f\n", qPrintable(chart_name), metric, value);
}

int main(int argc, char **argv) {
    QCoreApplication app(argc, argv);
    int rounds = 11, sessions = 2000;
    double millis = 20;
    QStringList args = app.arguments().mid(1);
    for (int i = 0; i < args.size(); i++) {
        if (args[i] == "--rounds" && i + 1 < args.size()) rounds = args[++i].toInt();
        else if (args[i] == "--millis" && i + 1 < args.size()) millis = args[++i].toDouble();
        else if (args[i] == "--sessions" && i + 1 < args.size()) sessions = args[++i].toInt();
        else chart_path = args[i];
    }
    if (chart_path.isEmpty()) {
        std::fprintf(stderr, "usage: qt_bench CHART.scxml [--rounds N] [--millis M] [--sessions K]\n");
        return 2;
    }
    QFileInfo info(chart_path);
    chart_name = info.completeBaseName();
    QFile events_file(info.path() + "/" + chart_name + ".events");
    if (!events_file.open(QIODevice::ReadOnly | QIODevice::Text)) {
        std::fprintf(stderr, "qt_bench: cannot read %s\n", qPrintable(events_file.fileName()));
        return 1;
    }
    QStringList names;
    for (const QString &line : QTextStream(&events_file).readAll().split('\n'))
        if (!line.trimmed().isEmpty()) names << line.trimmed();

    { // resident bytes per started session
        std::vector<std::unique_ptr<QScxmlStateMachine>> warm, machines;
        for (int i = 0; i < 16; i++) warm.emplace_back(started_machine());
        long before = resident_bytes();
        for (int i = 0; i < sessions; i++) machines.emplace_back(started_machine());
        report("resident_per_session", double(resident_bytes() - before) / sessions);
    }
    { // sessions created and started per CPU second
        std::vector<double> samples;
        for (int r = 0; r < std::max(3, rounds / 2); r++) {
            const int count = 200;
            double start = thread_cpu_ns();
            for (int i = 0; i < count; i++) delete started_machine();
            samples.push_back(count * 1e9 / (thread_cpu_ns() - start));
        }
        report("sessions_per_second", median(samples));
    }
    { // nanoseconds per event
        std::unique_ptr<QScxmlStateMachine> machine(started_machine());
        QStringList initial = machine->activeStateNames(false);
        initial.sort();
        size_t position = 0;
        auto dispatch = [&](long count) {
            while (count > 0) {
                long batch = std::min(count, 64L);
                for (long i = 0; i < batch; i++) {
                    machine->submitEvent(names[int(position)]);
                    if (++position == size_t(names.size())) position = 0;
                }
                QCoreApplication::processEvents();
                count -= batch;
            }
        };
        dispatch(long(names.size()) * 640);
        QStringList now = machine->activeStateNames(false);
        now.sort();
        if (now != initial) {
            std::fprintf(stderr, "qt_bench: %s: after whole event cycles Qt is in %s, not %s\n", qPrintable(chart_name),
                         qPrintable(now.join(',')), qPrintable(initial.join(',')));
            return 1;
        }
        long count = names.size() * 64;
        for (;;) {
            double start = thread_cpu_ns();
            dispatch(count);
            if (thread_cpu_ns() - start >= millis * 1e6) break;
            count *= 2;
        }
        std::vector<double> samples;
        for (int r = 0; r < rounds; r++) {
            double start = thread_cpu_ns();
            dispatch(count);
            samples.push_back((thread_cpu_ns() - start) / count);
        }
        report("ns_per_event", median(samples));
    }
    return 0;
}
