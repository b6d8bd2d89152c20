// AdminPanel — filled by its issue.
import Foundation
