import AppleFormats
import BetaKit

/// What iOS's installer says about the device in its User-Agent, e.g.
/// `com.apple.appstored/1.0 iOS/17.1 model/iPhone15,2 hwmodel/D73AP build/21B74 (6; dt:281)`.
struct InstallerAgent: Sendable, Equatable {
    /// The model code, e.g. `iPhone15,2`.
    var model: String?

    init(userAgent: String?) {
        model = nil
        guard let agent = userAgent else { return }
        for word in agent.split(separator: " ") where word.hasPrefix("model/") {
            let code = word.dropFirst("model/".count)
            if (1 ... 32).contains(code.count), code.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == ",") }) {
                model = String(code)
            }
        }
    }

    /// The tester's device the download was for, when the installer's model singles one out: the one
    /// active device of that model, else the one active device of that family.
    func device(among devices: [Device]) -> Device? {
        guard let model else { return nil }
        let active = devices.filter { $0.status == .active }
        let sameModel = active.filter { $0.model == model }
        if sameModel.count == 1 { return sameModel[0] }
        guard sameModel.isEmpty, let family = DeviceFamily(modelCode: model) else { return nil }
        let sameFamily = active.filter { $0.family == family }
        return sameFamily.count == 1 ? sameFamily[0] : nil
    }
}
