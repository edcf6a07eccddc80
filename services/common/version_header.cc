#include "services/common/version_header.h"

#include "kahve/version.h"

namespace kahve::common {
namespace {

using grpc::experimental::InterceptionHookPoints;

class ServerVersionInterceptor : public grpc::experimental::Interceptor {
 public:
  void Intercept(grpc::experimental::InterceptorBatchMethods* methods) override {
    const bool headers =
        methods->QueryInterceptionHookPoint(InterceptionHookPoints::PRE_SEND_INITIAL_METADATA);
    const bool status =
        methods->QueryInterceptionHookPoint(InterceptionHookPoints::PRE_SEND_STATUS);
    const bool message =
        methods->QueryInterceptionHookPoint(InterceptionHookPoints::PRE_SEND_MESSAGE);
    // Headers sent together with the status and no message make a Trailers-Only response, unless
    // they carry an entry of their own: left alone, so that it stays one.
    if (headers && !(status && !message)) {
      methods->GetSendInitialMetadata()->emplace(kServerVersionHeader, kKahveVersion);
    }
    if (status) methods->GetSendTrailingMetadata()->emplace(kServerVersionHeader, kKahveVersion);
    methods->Proceed();
  }
};

class ServerVersionFactory : public grpc::experimental::ServerInterceptorFactoryInterface {
 public:
  grpc::experimental::Interceptor* CreateServerInterceptor(
      grpc::experimental::ServerRpcInfo* /*info*/) override {
    return new ServerVersionInterceptor();
  }
};

}  // namespace

std::unique_ptr<grpc::experimental::ServerInterceptorFactoryInterface>
ServerVersionInterceptorFactory() {
  return std::make_unique<ServerVersionFactory>();
}

}  // namespace kahve::common
